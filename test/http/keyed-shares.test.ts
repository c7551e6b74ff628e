// The shares with a waiting line per key: first come first served within a key, keys apart, the
// line bounded in length and in wait (one sweep, on an injected clock here), a waiter released
// from the middle of its line, no timer while nobody waits, and idle keys' lines kept only so many.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKeyedShares, IDLE_LINES_KEPT, SWEEP_MS } from '../../src/http/keyed-shares.js';

let clock = 0;
const now = () => clock;
/** Lets settled promises' callbacks run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  clock = 0;
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => vi.useRealTimers());

describe('keyed shares', () => {
  it("hands a freed share to the first in its key's line, while another key takes one at once", async () => {
    const shares = createKeyedShares({ perKey: 1, now });
    const first = shares.take('a');
    expect(first.granted).toBe(true);
    const order: string[] = [];
    const waiters = ['a2', 'a3'].map((name) => {
      const share = shares.take('a');
      void (share.granted as Promise<boolean>).then((granted) => granted && order.push(name));
      return share;
    });
    expect(shares.take('b').granted).toBe(true);
    expect(shares.totals()).toEqual({ holding: 2, waiting: 2 });
    first.release();
    first.release();
    await settled();
    expect(order).toEqual(['a2']);
    waiters[0]!.release();
    await settled();
    expect(order).toEqual(['a2', 'a3']);
    expect(shares.totals()).toEqual({ holding: 2, waiting: 0 });
  });

  it("refuses at once past the line's length, and takes takers again once it has room", () => {
    const shares = createKeyedShares({ perKey: 1, maxWaiting: 2, now });
    const held = shares.take('a');
    const waiting = [shares.take('a'), shares.take('a')];
    expect(waiting.every((share) => share.granted instanceof Promise)).toBe(true);
    expect(shares.take('a').granted).toBe(false);
    waiting[1]!.release();
    expect(shares.take('a').granted).toBeInstanceOf(Promise);
    expect(held.granted).toBe(true);
  });

  it('refuses a waiter whose wait ran out, with one sweep and only while someone waits', async () => {
    const shares = createKeyedShares({ perKey: 1, maxWaitMs: 1_000, now });
    const held = shares.take('a');
    expect(vi.getTimerCount()).toBe(0);
    const early = shares.take('a');
    clock = 600;
    const late = shares.take('a');
    const other = [shares.take('b'), shares.take('b')];
    expect(vi.getTimerCount()).toBe(1);
    clock = 1_000;
    vi.advanceTimersByTime(SWEEP_MS);
    expect(await early.granted).toBe(false);
    expect(shares.totals()).toEqual({ holding: 2, waiting: 2 });
    held.release();
    expect(await late.granted).toBe(true);
    clock = 1_600;
    vi.advanceTimersByTime(SWEEP_MS);
    expect(await other[1]!.granted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets a waiter leave from the middle of its line; the shares come back to nothing', async () => {
    const shares = createKeyedShares({ perKey: 1, now });
    const held = shares.take('a');
    const [first, middle, last] = [shares.take('a'), shares.take('a'), shares.take('a')];
    middle!.release();
    expect(await middle!.granted).toBe(false);
    held.release();
    expect(await first!.granted).toBe(true);
    first!.release();
    expect(await last!.granted).toBe(true);
    last!.release();
    middle!.release();
    expect(shares.totals()).toEqual({ holding: 0, waiting: 0 });
    expect(shares.take('a').granted).toBe(true);
  });

  it("keeps idle keys' lines for their next taker; past IDLE_LINES_KEPT drops them, never a busy one", async () => {
    const shares = createKeyedShares({ perKey: 1, now });
    const held = shares.take('busy');
    const waiter = shares.take('busy');
    shares.take('a').release();
    expect(shares.keys()).toBe(2);
    for (let key = 1; key < IDLE_LINES_KEPT; key++) shares.take(`idle ${key}`).release();
    expect(shares.keys()).toBe(1 + IDLE_LINES_KEPT);
    shares.take('one more').release();
    expect(shares.keys()).toBe(1);
    held.release();
    expect(await waiter.granted).toBe(true);
    expect(shares.take('busy').granted).toBeInstanceOf(Promise);
    expect(shares.totals()).toEqual({ holding: 1, waiting: 1 });
  });
});
