import { describe, expect, it } from 'vitest';
import {
  pooledRates,
  ratesOf,
  sumCounters,
  type ScanCounters,
} from '../../../src/ai-visibility/metrics/pooled-rates.js';

const row = (overrides: Partial<ScanCounters>): ScanCounters => ({
  totalRuns: 0,
  visibilityCount: 0,
  mentionCount: 0,
  totalMentionCount: 0,
  positionedCount: 0,
  positionSum: 0,
  positiveCount: 0,
  neutralCount: 0,
  negativeCount: 0,
  ...overrides,
});

describe('pooled rates', () => {
  it('pools counts instead of averaging per-row rates (1/1 and 10/100 → 11/101)', () => {
    const rows = [row({ totalRuns: 1, visibilityCount: 1 }), row({ totalRuns: 100, visibilityCount: 10 })];
    expect(pooledRates(rows).visibility).toBeCloseTo(11 / 101, 12);
    const averaged = (1 + 0.1) / 2;
    expect(pooledRates(rows).visibility).not.toBeCloseTo(averaged, 3);
  });

  it('computes every rate of the contract from summed parts', () => {
    const rates = ratesOf(
      row({
        totalRuns: 40,
        visibilityCount: 12,
        mentionCount: 15,
        totalMentionCount: 60,
        positionedCount: 12,
        positionSum: 30,
        positiveCount: 8,
        neutralCount: 5,
        negativeCount: 2,
      }),
    );
    expect(rates).toEqual({ visibility: 0.3, shareOfVoice: 0.25, averagePosition: 2.5, sentiment: 6 / 15 });
  });

  it('gives null for zero denominators, never NaN or Infinity', () => {
    expect(ratesOf(row({}))).toEqual({ visibility: null, shareOfVoice: null, averagePosition: null, sentiment: null });
  });

  it('sums every counter', () => {
    expect(
      sumCounters([row({ totalRuns: 2, negativeCount: 1 }), row({ totalRuns: 3, negativeCount: 4 })]),
    ).toMatchObject({ totalRuns: 5, negativeCount: 5 });
  });
});
