// The one range check: defaults from "today" in the read's zone, the read's cap, and a refusal
// naming the read's own arguments.
import { describe, expect, it } from 'vitest';
import { checkedRange, defaultedRange, rangeRuleText, today } from '../../src/dates/date-range.js';

const RULE = { defaultDays: 30, maxDays: 400 };
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { param: (error as { param?: string }).param, message: (error as Error).message };
  }
  return null;
};

describe('date ranges', () => {
  it('default to the last defaultDays days ending today in the named zone (UTC unless told)', () => {
    const now = new Date('2026-11-18T23:30:00Z'); // already the 19th in Auckland
    expect(defaultedRange(null, null, now, RULE)).toEqual({ from: '2026-10-20', to: '2026-11-18' });
    expect(defaultedRange(null, null, now, RULE, { timeZone: 'Pacific/Auckland' })).toEqual({
      from: '2026-10-21',
      to: '2026-11-19',
    });
    expect(defaultedRange('2026-11-01', null, now, RULE)).toEqual({ from: '2026-11-01', to: '2026-11-18' });
    expect(defaultedRange(null, '0001-01-10', now, RULE)).toEqual({ from: '0001-01-01', to: '0001-01-10' });
    expect(today('UTC', now)).toBe('2026-11-18');
  });

  it('are refused past their cap or inverted, naming the arguments the read takes', () => {
    expect(checkedRange({ from: '2026-01-01', to: '2026-01-31' }, 31)).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(refusal(() => checkedRange({ from: '2026-01-01', to: '2026-02-01' }, 31))).toEqual({
      param: 'dateFrom',
      message:
        'dateFrom (2026-01-01) to dateTo (2026-02-01) spans 32 days; this read spans at most 31: ask for a shorter ' +
        'range.',
    });
    const current = { from: 'currentFrom', to: 'currentTo' };
    expect(refusal(() => checkedRange({ from: '2026-02-01', to: '2026-01-01' }, 31, current))).toEqual({
      param: 'currentFrom',
      message: 'currentFrom (2026-02-01) must not be after currentTo (2026-01-01).',
    });
    expect(rangeRuleText({ maxDays: 60 }, current)).toBe(
      'currentFrom to currentTo spans at most 60 days (wider: invalid_parameter).',
    );
  });
});
