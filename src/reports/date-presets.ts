// The date presets of the contract: ranges resolved from a report's "today" in its time
// zone, compare ranges, and the buckets of a chart.
import {
  addDays,
  addMonths,
  addYears,
  daysBetweenInclusive,
  startOfMonth,
  startOfQuarter,
  startOfWeek,
  startOfYear,
  type CivilDate,
  type DateRange,
} from '../dates/civil-date.js';

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'last_7_days',
  'last_14_days',
  'last_28_days',
  'last_30_days',
  'last_90_days',
  'last_365_days',
  'this_week',
  'this_month',
  'this_quarter',
  'this_year',
  'last_week',
  'last_month',
  'last_quarter',
  'last_year',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const COMPARE_PRESETS = ['none', 'previous_period', 'previous_year'] as const;
export type ComparePreset = (typeof COMPARE_PRESETS)[number];

/** The widest explicit range a report reads (a preset's is at most a year). */
export const MAX_REPORT_DAYS = 3 * 366;

const trailingDays: Partial<Record<DatePreset, number>> = {
  last_7_days: 7,
  last_14_days: 14,
  last_28_days: 28,
  last_30_days: 30,
  last_90_days: 90,
  last_365_days: 365,
};

export function resolveDatePreset(preset: DatePreset, today: CivilDate): DateRange {
  const days = trailingDays[preset];
  if (days) return { from: addDays(today, -days), to: addDays(today, -1) };
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'this_week':
      return { from: startOfWeek(today), to: today };
    case 'this_month':
      return { from: startOfMonth(today), to: today };
    case 'this_quarter':
      return { from: startOfQuarter(today), to: today };
    case 'this_year':
      return { from: startOfYear(today), to: today };
    case 'last_week': {
      const from = addDays(startOfWeek(today), -7);
      return { from, to: addDays(from, 6) };
    }
    case 'last_month': {
      const from = addMonths(startOfMonth(today), -1);
      return { from, to: addDays(startOfMonth(today), -1) };
    }
    case 'last_quarter': {
      const from = addMonths(startOfQuarter(today), -3);
      return { from, to: addDays(startOfQuarter(today), -1) };
    }
    case 'last_year': {
      const from = `${String(+today.slice(0, 4) - 1).padStart(4, '0')}-01-01`;
      return { from, to: addDays(startOfYear(today), -1) };
    }
    default:
      throw new Error(`unhandled preset ${preset}`);
  }
}

export function resolveComparePreset(preset: ComparePreset, range: DateRange): DateRange | null {
  switch (preset) {
    case 'none':
      return null;
    case 'previous_period': {
      const length = daysBetweenInclusive(range);
      return { from: addDays(range.from, -length), to: addDays(range.from, -1) };
    }
    case 'previous_year':
      return { from: addYears(range.from, -1), to: addYears(range.to, -1) };
    default:
      throw new Error(`unhandled compare preset ${preset satisfies never}`);
  }
}

export type Granularity = 'day' | 'week' | 'month';

/** The first day of the bucket that holds `date`. */
export function bucketStart(date: CivilDate, granularity: Granularity): CivilDate {
  if (granularity === 'week') return startOfWeek(date);
  if (granularity === 'month') return startOfMonth(date);
  return date;
}

const nextBucket = (start: CivilDate, granularity: Granularity): CivilDate =>
  granularity === 'month' ? addMonths(start, 1) : addDays(start, granularity === 'week' ? 7 : 1);

/**
 * How many days of the bucket starting at `start` lie in the range, and whether that is fewer
 * than it has (a week or month the range cuts).
 */
export function bucketCoverage(
  start: CivilDate,
  granularity: Granularity,
  range: DateRange,
): { daysInRange: number; partial: boolean } {
  const end = addDays(nextBucket(start, granularity), -1);
  const from = start > range.from ? start : range.from;
  const to = end < range.to ? end : range.to;
  const daysInRange = from > to ? 0 : daysBetweenInclusive({ from, to });
  return { daysInRange, partial: daysInRange < daysBetweenInclusive({ from: start, to: end }) };
}

/** Every bucket start of a range, in order, including buckets with no data. */
export function bucketsOf(range: DateRange, granularity: Granularity): CivilDate[] {
  const buckets: CivilDate[] = [];
  let cursor = bucketStart(range.from, granularity);
  while (cursor <= range.to) {
    buckets.push(cursor);
    cursor = nextBucket(cursor, granularity);
  }
  return buckets;
}
