// Civil-date arithmetic and the date presets of the contract. Dates are 'YYYY-MM-DD'
// strings; arithmetic runs on UTC midnights so no local offset or DST can shift a day.

export type CivilDate = string;
export interface DateRange {
  from: CivilDate;
  to: CivilDate;
}

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

const DAY_MS = 86_400_000;

export function isCivilDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

const toUtc = (date: CivilDate) => Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
const fromUtc = (ms: number): CivilDate => new Date(ms).toISOString().slice(0, 10);

export function addDays(date: CivilDate, days: number): CivilDate {
  return fromUtc(toUtc(date) + days * DAY_MS);
}

export function daysBetweenInclusive(range: DateRange): number {
  return Math.round((toUtc(range.to) - toUtc(range.from)) / DAY_MS) + 1;
}

/** Same calendar date `years` earlier/later; 29 February becomes 28 February. */
export function addYears(date: CivilDate, years: number): CivilDate {
  const year = +date.slice(0, 4) + years;
  const monthDay = date.slice(5);
  const candidate = `${String(year).padStart(4, '0')}-${monthDay}`;
  return isCivilDate(candidate) ? candidate : `${String(year).padStart(4, '0')}-02-28`;
}

/** The civil date at `now` in an IANA time zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function todayIn(timeZone: string, now: Date): CivilDate {
  // Building a DateTimeFormat costs far more than using one: keep one per zone.
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(now);
  const get = (type: string) => parts.find((part) => part.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Monday of the ISO week containing `date`. */
export function startOfWeek(date: CivilDate): CivilDate {
  const weekday = (new Date(toUtc(date)).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

export function startOfMonth(date: CivilDate): CivilDate {
  return `${date.slice(0, 7)}-01`;
}

export function startOfQuarter(date: CivilDate): CivilDate {
  const month = +date.slice(5, 7);
  const quarterMonth = Math.floor((month - 1) / 3) * 3 + 1;
  return `${date.slice(0, 4)}-${String(quarterMonth).padStart(2, '0')}-01`;
}

export function startOfYear(date: CivilDate): CivilDate {
  return `${date.slice(0, 4)}-01-01`;
}

function addMonths(firstOfMonth: CivilDate, months: number): CivilDate {
  const index = +firstOfMonth.slice(0, 4) * 12 + (+firstOfMonth.slice(5, 7) - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

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

/** Every bucket start of a range, in order, including buckets with no data. */
export function bucketsOf(range: DateRange, granularity: Granularity): CivilDate[] {
  const buckets: CivilDate[] = [];
  let cursor = bucketStart(range.from, granularity);
  while (cursor <= range.to) {
    buckets.push(cursor);
    cursor = granularity === 'month' ? addMonths(cursor, 1) : addDays(cursor, granularity === 'week' ? 7 : 1);
  }
  return buckets;
}
