// The default range of every AI-visibility read: dateTo is today unless given, dateFrom 29 days
// before dateTo unless given — the rule the OpenAPI argument descriptions state.
import { describe, expect, it } from 'vitest';
import { metricsRange, RUN_RANGE, SCAN_RANGE } from '../../../src/ai-visibility/common/read-filters.js';
import { intBounds, withinBounds } from '../../../src/errors/index.js';

const now = new Date('2026-11-25T22:00:00Z');

describe('metricsRange', () => {
  it('no bound: the 30 days ending today (UTC)', () => {
    expect(metricsRange(null, null, now)).toEqual({ from: '2026-10-27', to: '2026-11-25' });
  });

  it('dateFrom alone runs through today, however far back it starts', () => {
    expect(metricsRange('2026-01-01', null, now)).toEqual({ from: '2026-01-01', to: '2026-11-25' });
  });

  it('dateTo alone starts 29 days before it', () => {
    expect(metricsRange(null, '2026-03-31', now)).toEqual({ from: '2026-03-02', to: '2026-03-31' });
  });

  it('dateFrom after today without dateTo is a reversed range', () => {
    expect(() => metricsRange('2026-12-01', null, now)).toThrow(/must not be after dateTo/);
  });

  it("refuses a range wider than the read's rule, naming dateFrom and the cap", () => {
    // Runs: 400 days. 2025-10-22 through 2026-11-25 is 400 days, one day more is refused.
    expect(metricsRange('2025-10-22', null, now)).toEqual({ from: '2025-10-22', to: '2026-11-25' });
    expect(() => metricsRange('2025-10-21', null, now)).toThrow(
      expect.objectContaining({
        code: 'invalid_parameter',
        param: 'dateFrom',
        message: expect.stringMatching(/spans 401 days; this read spans at most 400/),
      }),
    );
    expect(() => metricsRange('0001-01-01', '9999-12-31', now, RUN_RANGE)).toThrow(/at most 400/);
    // Scans: three years.
    expect(metricsRange('2023-11-24', null, now, SCAN_RANGE)).toEqual({ from: '2023-11-24', to: '2026-11-25' });
    expect(() => metricsRange('2023-11-23', '2026-11-25', now, SCAN_RANGE)).toThrow(/at most 1098/);
  });
});

describe('withinBounds', () => {
  const bounds = intBounds(1, 500, 20);

  it('gives the declared default for an absent value and takes any whole number within the bounds', () => {
    expect(withinBounds(undefined, bounds)).toBe(20);
    expect(withinBounds(null, bounds)).toBe(20);
    expect(withinBounds(1, bounds)).toBe(1);
    expect(withinBounds(500, bounds)).toBe(500);
  });

  it('refuses anything else with a 400 naming the parameter and the bounds', () => {
    for (const value of [0, 501, -1, 2.5]) {
      expect(() => withinBounds(value, bounds, 'first')).toThrow(
        expect.objectContaining({ param: 'first', message: 'first must be a whole number from 1 to 500.' }),
      );
    }
  });
});
