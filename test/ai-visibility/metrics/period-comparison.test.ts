import { describe, expect, it } from 'vitest';
import { compareLocales } from '../../../src/ai-visibility/metrics/period-comparison.js';
import type { LocaleTotals } from '../../../src/ai-visibility/metrics/metrics.js';

const totals = (locale: string, visibility: number | null, totalRuns = 10) =>
  ({
    locale,
    totalRuns,
    visibility,
    shareOfVoice: 0.5,
    averagePosition: 2,
    sentiment: null,
    byModel: [],
    competitors: [],
  }) as unknown as LocaleTotals;

describe('compareLocales', () => {
  it('pairs locales of both periods, with deltas only where both sides have a value', () => {
    const [de, en] = compareLocales([totals('en-US', 0.4)], [totals('de-DE', 0.2), totals('en-US', 0.1)]);
    expect(de).toMatchObject({ locale: 'de-DE', current: null, delta: { visibility: null } });
    expect(en!.delta.visibility).toBeCloseTo(0.3, 12);
    expect(en!.delta.sentiment).toBeNull();
    expect(en!.current).toEqual({
      totalRuns: 10,
      visibility: 0.4,
      shareOfVoice: 0.5,
      averagePosition: 2,
      sentiment: null,
    });
  });
});
