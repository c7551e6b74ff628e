import { describe, expect, it } from 'vitest';
import { addYears, isCivilDate } from '../../src/dates/civil-date.js';
import { today as todayOf } from '../../src/dates/date-range.js';
import { bucketsOf, resolveComparePreset, resolveDatePreset, type DatePreset } from '../../src/reports/date-presets.js';

describe('date presets', () => {
  const today = '2026-11-18'; // a Wednesday
  const cases: [DatePreset, string, string][] = [
    ['today', '2026-11-18', '2026-11-18'],
    ['yesterday', '2026-11-17', '2026-11-17'],
    ['last_7_days', '2026-11-11', '2026-11-17'],
    ['last_14_days', '2026-11-04', '2026-11-17'],
    ['last_28_days', '2026-10-21', '2026-11-17'],
    ['last_30_days', '2026-10-19', '2026-11-17'],
    ['last_90_days', '2026-08-20', '2026-11-17'],
    ['last_365_days', '2025-11-18', '2026-11-17'],
    ['this_week', '2026-11-16', '2026-11-18'],
    ['this_month', '2026-11-01', '2026-11-18'],
    ['this_quarter', '2026-10-01', '2026-11-18'],
    ['this_year', '2026-01-01', '2026-11-18'],
    ['last_week', '2026-11-09', '2026-11-15'],
    ['last_month', '2026-10-01', '2026-10-31'],
    ['last_quarter', '2026-07-01', '2026-09-30'],
    ['last_year', '2025-01-01', '2025-12-31'],
  ];
  it.each(cases)('%s on %s', (preset, from, to) => {
    expect(resolveDatePreset(preset, today)).toEqual({ from, to });
  });

  it('weeks start on Monday, also when today is a Sunday or a Monday', () => {
    expect(resolveDatePreset('this_week', '2026-11-22')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(resolveDatePreset('this_week', '2026-11-16')).toEqual({ from: '2026-11-16', to: '2026-11-16' });
    expect(resolveDatePreset('last_week', '2026-11-16')).toEqual({ from: '2026-11-09', to: '2026-11-15' });
  });

  it('handles month ends and leap years', () => {
    expect(resolveDatePreset('last_month', '2024-03-31')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(resolveDatePreset('last_month', '2025-03-01')).toEqual({ from: '2025-02-01', to: '2025-02-28' });
    expect(resolveDatePreset('last_month', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(resolveDatePreset('last_quarter', '2026-02-10')).toEqual({ from: '2025-10-01', to: '2025-12-31' });
    expect(resolveDatePreset('last_7_days', '2024-03-01')).toEqual({ from: '2024-02-23', to: '2024-02-29' });
  });

  it('previous_period has the same length immediately before', () => {
    expect(resolveComparePreset('previous_period', { from: '2026-11-11', to: '2026-11-17' })).toEqual({
      from: '2026-11-04',
      to: '2026-11-10',
    });
    expect(resolveComparePreset('previous_period', { from: '2024-03-01', to: '2024-03-31' })).toEqual({
      from: '2024-01-30',
      to: '2024-02-29',
    });
    expect(resolveComparePreset('none', { from: '2026-11-11', to: '2026-11-17' })).toBeNull();
  });

  it('previous_year keeps calendar dates and maps 29 February to 28 February', () => {
    expect(resolveComparePreset('previous_year', { from: '2024-02-01', to: '2024-02-29' })).toEqual({
      from: '2023-02-01',
      to: '2023-02-28',
    });
    expect(addYears('2024-02-29', -1)).toBe('2023-02-28');
    expect(addYears('2026-12-31', -1)).toBe('2025-12-31');
  });

  it('today depends on the time zone, on both sides of UTC', () => {
    const instant = new Date('2026-11-18T11:30:00Z');
    expect(todayOf('Pacific/Auckland', instant)).toBe('2026-11-19');
    expect(todayOf('America/Los_Angeles', new Date('2026-11-18T05:00:00Z'))).toBe('2026-11-17');
    expect(todayOf('UTC', instant)).toBe('2026-11-18');
    // 23:59 in Auckland is still the same local day.
    const lateInAuckland = new Date('2026-11-18T10:59:00Z'); // NZDT = UTC+13 → 23:59 on the 18th
    expect(todayOf('Pacific/Auckland', lateInAuckland)).toBe('2026-11-18');
    expect(resolveDatePreset('today', todayOf('Pacific/Auckland', lateInAuckland))).toEqual({
      from: '2026-11-18',
      to: '2026-11-18',
    });
  });

  it('validates calendar dates strictly', () => {
    expect(isCivilDate('2024-02-29')).toBe(true);
    for (const bad of ['2023-02-29', '2026-13-01', '2026-1-01', '20261101', '2026-11-01T00:00:00Z', '', ' 2026-11-01'])
      expect(isCivilDate(bad)).toBe(false);
  });

  it('lists every bucket of a range, including ones without data', () => {
    expect(bucketsOf({ from: '2026-11-11', to: '2026-11-24' }, 'week')).toEqual([
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
    ]);
    expect(bucketsOf({ from: '2026-01-31', to: '2026-03-01' }, 'month')).toEqual([
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
    ]);
    expect(bucketsOf({ from: '2026-11-01', to: '2026-11-03' }, 'day')).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
    ]);
  });
});
