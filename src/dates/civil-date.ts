// Civil-date arithmetic shared by every feature. Dates are 'YYYY-MM-DD' strings; arithmetic
// runs on UTC midnights so no local offset or DST can shift a day.

export type CivilDate = string;
export interface DateRange {
  from: CivilDate;
  to: CivilDate;
}

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

export function addMonths(firstOfMonth: CivilDate, months: number): CivilDate {
  const index = +firstOfMonth.slice(0, 4) * 12 + (+firstOfMonth.slice(5, 7) - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}
