import { describe, expect, it } from 'vitest';
import { rateLimitHeaders, retryAfterOf, take, takeAll, type BucketState } from '../../src/auth/token-bucket.js';

const policy = { capacity: 5, refillPerSecond: 2 };

describe('token bucket', () => {
  it('allows a burst of exactly the capacity, then refuses', () => {
    let state: BucketState | undefined;
    const allowed: boolean[] = [];
    for (let i = 0; i < 7; i++) {
      const result = take(policy, state, 1_000);
      state = result.state;
      allowed.push(result.allowed);
    }
    expect(allowed).toEqual([true, true, true, true, true, false, false]);
  });

  it('refills at the configured rate and never above capacity', () => {
    let result = take(policy, undefined, 0);
    for (let i = 0; i < 4; i++) result = take(policy, result.state, 0);
    expect(result.remaining).toBe(0);
    expect(take(policy, result.state, 400).allowed).toBe(false); // 0.8 token
    const later = take(policy, result.state, 500); // exactly one token
    expect(later.allowed).toBe(true);
    expect(take(policy, result.state, 3_600_000).remaining).toBe(4);
  });

  it('says how long to wait, in whole seconds of at least one', () => {
    const empty = { tokens: 0, updatedAtMs: 0 };
    const refused = take({ capacity: 10, refillPerSecond: 0.25 }, empty, 0);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(4);
    expect(take(policy, empty, 0).retryAfterSeconds).toBe(1);
  });

  it('ignores clocks that go backwards', () => {
    const state = { tokens: 1, updatedAtMs: 10_000 };
    const result = take(policy, state, 5_000);
    expect(result.allowed).toBe(true);
    expect(result.state.updatedAtMs).toBe(10_000);
  });

  it('formats the IETF RateLimit fields and Retry-After only on refusal', () => {
    const ok = take(policy, undefined, 0);
    expect(rateLimitHeaders(policy, ok)).toEqual({
      'RateLimit-Policy': '"burst";q=5;w=3',
      RateLimit: '"burst";r=4;t=1',
    });
    const refused = take(policy, { tokens: 0, updatedAtMs: 0 }, 0);
    expect(rateLimitHeaders(policy, refused)['Retry-After']).toBe('1');
  });
});

describe('refunds', () => {
  it('give a token back with a cost of -1, never above capacity', () => {
    const first = take(policy, undefined, 0);
    expect(first.remaining).toBe(4);
    const refunded = take(policy, first.state, 0, -1);
    expect(refunded.allowed).toBe(true);
    expect(refunded.remaining).toBe(5);
    expect(take(policy, refunded.state, 0, -1).remaining).toBe(5);
  });
});

describe('several buckets (a key and its workspace)', () => {
  const workspace = { capacity: 3, refillPerSecond: 0.5 };
  it('take from every bucket or from none: a refusal by one spends nothing from the other', () => {
    const first = takeAll(
      [
        { policy, state: undefined },
        { policy: workspace, state: { tokens: 0.5, updatedAtMs: 0 } },
      ],
      0,
    );
    expect(first.map((result) => result.allowed)).toEqual([false, false]);
    expect(first.map((result) => result.remaining)).toEqual([5, 0]);
    // The workspace needs half a token at 0.5 per second: one second, which the refusal says;
    // the key's bucket is not why, and says 0.
    expect(first.map((result) => result.retryAfterSeconds)).toEqual([0, 1]);
    expect(retryAfterOf(first)).toBe(1);
    const later = takeAll(
      first.map((result, index) => ({ policy: [policy, workspace][index]!, state: result.state })),
      1_000,
    );
    expect(later.map((result) => [result.allowed, result.remaining])).toEqual([
      [true, 4],
      [true, 0],
    ]);
    expect(retryAfterOf(later)).toBe(0);
  });
});
