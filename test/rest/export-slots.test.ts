// The export shares' wait, without a clock: an export over its share waits for one to free and
// takes it when it does; one that finds its share free never waits.
import { describe, expect, it, vi } from 'vitest';
import { createExportSlots, SHARE_WAIT_MS, type ExportRefusal, type ExportSlot } from '../../src/rest/export-slots.js';

const isSlot = (outcome: ExportSlot | ExportRefusal | undefined): outcome is ExportSlot => typeof outcome === 'object';

describe('export shares', () => {
  it('make an export over its share wait for a release, then serve it', async () => {
    const slots = createExportSlots({ instance: 4, perWorkspace: 1, perKey: 1 });
    const first = await slots.take('wsp_a', 'key_a');
    expect(isSlot(first)).toBe(true);
    let second: ExportSlot | ExportRefusal | undefined;
    const taking = slots.take('wsp_a', 'key_a').then((outcome) => (second = outcome));
    // Every turn the waiting request could take passes: it neither holds a slot nor is refused.
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBeUndefined();
    (first as ExportSlot).release();
    await taking;
    expect(isSlot(second)).toBe(true);
  });

  it('refuse an export whose share stays taken for the whole wait, naming the share', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const slots = createExportSlots({ instance: 4, perWorkspace: 2, perKey: 1 });
      expect(isSlot(await slots.take('wsp_a', 'key_a'))).toBe(true);
      const refused = slots.take('wsp_a', 'key_a');
      await vi.advanceTimersByTimeAsync(SHARE_WAIT_MS);
      expect(await refused).toBe('key');
    } finally {
      vi.useRealTimers();
    }
  });
});
