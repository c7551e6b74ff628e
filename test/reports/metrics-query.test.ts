// A mover's delta is the decimal difference of two sums, not a float subtraction's noise.
import { describe, expect, it } from 'vitest';
import { difference, topMovers } from '../../src/reports/metrics-query.js';

describe("a mover's delta", () => {
  it('is exact for sums (whole millionths) and a plain difference for ratios', () => {
    expect(difference(1000.58, 606.2)).toBe(394.38);
    expect(difference(100.7, 100.1)).toBe(0.6);
    expect(difference(5000.01, 4605.63)).toBe(394.38);
    expect(difference(0.123456, 0.1)).toBe(0.023456);
    // A ratio is not a number of millionths: subtracted as it is.
    expect(difference(0.0123456789, 0.01)).toBe(0.0123456789 - 0.01);
  });

  it('orders the movers by it', () => {
    const row = (dimensionValue: string, value: number, previous: number) => ({
      dimensionValue,
      values: [value],
      previousValues: [previous],
    });
    const movers = topMovers([row('a', 1000.58, 606.2), row('b', 10, 12), row('c', 5, 5)], 5);
    expect(movers.map((mover) => [mover.dimensionValue, mover.delta])).toEqual([
      ['a', 394.38],
      ['b', -2],
    ]);
  });
});
