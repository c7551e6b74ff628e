// Civil-date arithmetic shared by every feature. Dates are 'YYYY-MM-DD' strings; arithmetic
// runs on UTC midnights so no local offset or DST can shift a day.

export type CivilDate = string;
export interface DateRange {
  from: CivilDate;
  to: CivilDate;
}

/**
 * The dates the service takes and stores: years 0001–9999. PostgreSQL's date type refuses year
 * 0 (its calendar goes from 1 BC to AD 1) and a negative year has no YYYY-MM-DD form; five-digit
 * years have none either.
 */
export const EARLIEST_DATE: CivilDate = '0001-01-01';
export const LATEST_DATE: CivilDate = '9999-12-31';
export const DATE_RULE = `a date of the form YYYY-MM-DD from ${EARLIEST_DATE} to ${LATEST_DATE}`;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Why `value` is not a date the service takes, or null: the one check every door (GraphQL, v1, MCP, ingest) uses. */
export function civilDateProblem(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return `must be ${DATE_RULE}`;
  const year = +value.slice(0, 4);
  const month = +value.slice(5, 7);
  const day = +value.slice(8, 10);
  if (year < 1) return `must be ${DATE_RULE} (year 0000 does not exist)`;
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!))
    return `must be ${DATE_RULE}; ${value.slice(0, 10)} does not exist`;
  return null;
}

export const isCivilDate = (value: string): boolean => civilDateProblem(value) === null;

/** A computed bound kept inside the dates the service takes (a default 29 days before 0001-01-15). */
export const clampDate = (date: CivilDate): CivilDate =>
  date < EARLIEST_DATE ? EARLIEST_DATE : date > LATEST_DATE ? LATEST_DATE : date;

// Arithmetic on day numbers (days since 1970-01-01) by Howard Hinnant's civil-calendar algorithms:
// integers only, no Date per call — a report's charts do it for every bucket of every series
// (docs/decisions/civil-date-arithmetic.md). A month or day outside its range (the sentinels
// below, only reachable by arithmetic) rolls over as Date.UTC would roll it.
const DAYS_PER_ERA = 146_097;
const EPOCH_SHIFT = 719_468;

/** The day number of year/month/day (proleptic Gregorian calendar, any integers). */
export function dayNumber(year: number, month: number, day: number): number {
  const yearShift = Math.floor((month - 1) / 12);
  const y = year + yearShift - (month - yearShift * 12 <= 2 ? 1 : 0);
  const m = month - yearShift * 12;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * DAYS_PER_ERA + dayOfEra - EPOCH_SHIFT;
}

const toDayNumber = (date: CivilDate) => dayNumber(+date.slice(0, 4), +date.slice(5, 7), +date.slice(8, 10));

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * The date of a day number. Outside years 0000–9999 the string sorts outside the valid range and
 * clampDate brings it back.
 */
export function civilDateOf(days: number): CivilDate {
  const shifted = days + EPOCH_SHIFT;
  const era = Math.floor(shifted / DAYS_PER_ERA);
  const dayOfEra = shifted - era * DAYS_PER_ERA;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0) return '0000-00-00';
  if (year > 9999) return '9999-99-99';
  return `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}`;
}

export function addDays(date: CivilDate, days: number): CivilDate {
  return civilDateOf(toDayNumber(date) + days);
}

export function daysBetweenInclusive(range: DateRange): number {
  return toDayNumber(range.to) - toDayNumber(range.from) + 1;
}

/** Same calendar date `years` earlier/later; 29 February becomes 28 February. */
export function addYears(date: CivilDate, years: number): CivilDate {
  const year = +date.slice(0, 4) + years;
  const monthDay = date.slice(5);
  return `${String(year).padStart(4, '0')}-${monthDay === '02-29' && !isLeapYear(year) ? '02-28' : monthDay}`;
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
  // Day 0 (1970-01-01) was a Thursday, weekday 3 counted from Monday.
  const weekday = (((toDayNumber(date) + 3) % 7) + 7) % 7;
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
