// How the report view writes a figure and judges a change, as pure rules: one number of places
// per metric (a column reads 2.10 above 2.08), a change that reads 0.0 % is no change, and a
// change is judged only between two periods with data for every one of their days.
import { describe, expect, it } from 'vitest';
import { missingData, verdict } from '../../web/views/common/change.js';
import { formats } from '../../web/views/common/format.js';

const f = formats('en-US');

describe("a metric's figure", () => {
  it("has its unit's places always, so that a column or a row of tiles reads alike", () => {
    expect([2.1, 2.08].map(f.ofUnit('decimal'))).toEqual(['2.10', '2.08']);
    expect([0.6, 0.632].map(f.ofUnit('percent'))).toEqual(['60.0%', '63.2%']);
    expect([0.8, 12].map(f.ofUnit('currency'))).toEqual(['0.80', '12.00']);
    // With the client's currency: its sign, and two places for every currency (a yen CPC of 1.23 is not "¥1").
    expect([0.8, 1_234.567].map(f.ofUnit('currency', 'GBP'))).toEqual(['£0.80', '£1,234.57']);
    expect([1.234].map(f.ofUnit('currency', 'JPY'))).toEqual(['¥1.23']);
    // A count shows the fraction an attribution gave it, never a rounded number the API does not give.
    expect([12.6, 1_204, 0.333_333].map(f.ofUnit('count'))).toEqual(['12.6', '1,204', '0.33']);
  });

  it('writes a change to one decimal of a percentage, and a number of days singular or plural', () => {
    expect([0.03, -0.124, 0.0004].map((change) => f.change(change))).toEqual(['+3.0%', '-12.4%', '0.0%']);
    expect([1, 27].map(f.days)).toEqual(['1 day', '27 days']);
  });
});

describe('a change', () => {
  it('that reads 0.0 % is neither better nor worse', () => {
    expect(verdict(0.0004, 'higher')).toBeNull();
    expect(verdict(-0.0004, 'lower')).toBeNull();
    expect(verdict(0.0005, 'higher')).toBe('better');
    expect(verdict(0.0005, 'lower')).toBe('worse');
  });

  it('is judged only when both periods have data for all their days; otherwise each lacking one is named', () => {
    const full = { days: 7, daysWithData: 7 };
    expect(missingData(full, full, f)).toEqual([]);
    expect(missingData(full, null, f)).toEqual([]);
    expect(missingData({ days: 1, daysWithData: 0 }, { days: 1, daysWithData: 1 }, f)).toEqual([
      'the current period has data for 0 of 1 day',
    ]);
    expect(missingData({ days: 27, daysWithData: 26 }, { days: 27, daysWithData: 10 }, f)).toEqual([
      'the current period has data for 26 of 27 days',
      'the compared period has data for 10 of 27 days',
    ]);
  });
});
