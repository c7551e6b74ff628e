// The default range of every AI-visibility read: dateTo is today unless given, dateFrom 29 days
// before dateTo unless given — the rule the OpenAPI argument descriptions state.
import { describe, expect, it } from 'vitest';
import { metricsRange } from '../../src/ai-visibility/read-filters.js';

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
});
