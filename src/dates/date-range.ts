// "Today" and date ranges, one rule each for every read. Today is the civil date at the
// request's instant in a time zone the endpoint names: UTC for data stored as UTC days (AI
// visibility's scans and runs), a report's own zone for its presets, the caller's zone for an ad
// hoc metrics query. A range is checked once, here, against the cap of the read that takes it
// (declared where the read's name points) and refused naming that read's own arguments.
import { invalidParameter } from '../errors/index.js';
import { addDays, clampDate, daysBetweenInclusive, type CivilDate, type DateRange } from './civil-date.js';

/** The zone of data stored as UTC days. */
export const UTC = 'UTC';

// Building a DateTimeFormat costs far more than using one: one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The civil date at `now` in `timeZone` (an IANA name). */
export function today(timeZone: string, now: Date): CivilDate {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(now);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A read's range: its length when the first day is left out, and the widest it accepts. */
export interface RangeRule {
  defaultDays: number;
  maxDays: number;
}

/** The arguments a range is given as, which a refusal names. */
export interface RangeNames {
  from: string;
  to: string;
}

export const DATE_FROM_TO: RangeNames = { from: 'dateFrom', to: 'dateTo' };

/** `range` as asked, or a 400 naming `names.from`: its first day after its last, or more than `maxDays` days. */
export function checkedRange(range: DateRange, maxDays: number, names: RangeNames = DATE_FROM_TO): DateRange {
  const { from, to } = range;
  if (from > to) throw invalidParameter(names.from, `${names.from} (${from}) must not be after ${names.to} (${to}).`);
  const days = daysBetweenInclusive(range);
  if (days > maxDays) {
    throw invalidParameter(
      names.from,
      `${names.from} (${from}) to ${names.to} (${to}) spans ${days} days; ` +
        `this read spans at most ${maxDays}: ask for a shorter range.`,
    );
  }
  return range;
}

export interface RangeDefaults {
  /** The zone of "today", the default last day (UTC unless the read names another). */
  timeZone?: string;
  names?: RangeNames;
}

/**
 * A range whose bounds may be left out: the last day defaults to today and the first to
 * `rule.defaultDays` − 1 days before the last (never before 0001-01-01), so no bound means the
 * last `defaultDays` days and a first day alone means from then through today; then checked.
 */
export function defaultedRange(
  from: CivilDate | null | undefined,
  to: CivilDate | null | undefined,
  now: Date,
  rule: RangeRule,
  { timeZone = UTC, names = DATE_FROM_TO }: RangeDefaults = {},
): DateRange {
  const last = to ?? today(timeZone, now);
  const first = from ?? clampDate(addDays(last, -(rule.defaultDays - 1)));
  return checkedRange({ from: first, to: last }, rule.maxDays, names);
}

/** What a range argument's description says of its rule (the OpenAPI document carries it). */
export const rangeRuleText = (rule: Pick<RangeRule, 'maxDays'>, names: RangeNames = DATE_FROM_TO) =>
  `${names.from} to ${names.to} spans at most ${rule.maxDays} days (wider: invalid_parameter).`;
