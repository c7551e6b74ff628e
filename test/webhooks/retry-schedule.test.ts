import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, parseConfig } from '../../src/config/index.js';
import { attemptOutcome, retryAfterSeconds, retryDelaySeconds } from '../../src/webhooks/retry-schedule.js';

const schedule = parseConfig({}).WEBHOOK_RETRY_SCHEDULE;
const now = new Date('2026-11-22T10:00:00Z');

describe('the retry schedule', () => {
  it("is the contract's: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then failed", () => {
    expect(DEFAULT_RETRY_SCHEDULE.split(',').map(Number)).toEqual([
      5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400,
    ]);
    expect(schedule).toHaveLength(9);
    expect(retryDelaySeconds(1, schedule, () => 0)).toBe(5);
    expect(retryDelaySeconds(9, schedule, () => 0)).toBe(86400);
    expect(retryDelaySeconds(10, schedule, () => 0)).toBeNull();
  });

  it('adds up to 20 % jitter, never less than the schedule', () => {
    expect(retryDelaySeconds(2, schedule, () => 0.999)).toBeCloseTo(359.9, 0);
    for (let i = 0; i < 100; i++) {
      const delay = retryDelaySeconds(3, schedule)!;
      expect(delay).toBeGreaterThanOrEqual(1800);
      expect(delay).toBeLessThanOrEqual(2160);
    }
  });

  it('reads Retry-After as seconds or an HTTP date, bounded to a day', () => {
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds('Sun, 22 Nov 2026 10:10:00 GMT', now)).toBe(600);
    expect(retryAfterSeconds('999999999', now)).toBe(86400);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });

  it("decides each attempt's outcome", () => {
    const zero = () => 0;
    expect(attemptOutcome({ status: 204, retryAfter: null }, 1, schedule, now, zero)).toEqual({ kind: 'succeeded' });
    expect(attemptOutcome({ status: 410, retryAfter: null }, 1, schedule, now, zero)).toEqual({ kind: 'gone' });
    expect(attemptOutcome({ status: 301, retryAfter: null }, 1, schedule, now, zero)).toEqual({
      kind: 'retry',
      delaySeconds: 5,
    });
    expect(attemptOutcome({ status: null, retryAfter: null }, 2, schedule, now, zero)).toEqual({
      kind: 'retry',
      delaySeconds: 300,
    });
    // Retry-After is honoured on 429/503 when it asks for longer than the schedule, ignored elsewhere.
    expect(attemptOutcome({ status: 429, retryAfter: '3600' }, 2, schedule, now, zero)).toEqual({
      kind: 'retry',
      delaySeconds: 3600,
    });
    expect(attemptOutcome({ status: 503, retryAfter: '1' }, 2, schedule, now, zero)).toEqual({
      kind: 'retry',
      delaySeconds: 300,
    });
    expect(attemptOutcome({ status: 500, retryAfter: '3600' }, 2, schedule, now, zero)).toEqual({
      kind: 'retry',
      delaySeconds: 300,
    });
    expect(attemptOutcome({ status: 500, retryAfter: null }, 10, schedule, now, zero)).toEqual({ kind: 'failed' });
  });

  it('is compressed by WEBHOOK_RETRY_SCHEDULE and refuses nonsense', () => {
    expect(parseConfig({ WEBHOOK_RETRY_SCHEDULE: '0.1, 0.2' }).WEBHOOK_RETRY_SCHEDULE).toEqual([0.1, 0.2]);
    expect(() => parseConfig({ WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => parseConfig({ WEBHOOK_RETRY_SCHEDULE: '-1' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });
});
