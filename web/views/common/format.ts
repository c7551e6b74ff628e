// Numbers and dates as the person's locale writes them (the host's locale, else the browser's).
export interface Formats {
  locale: string;
  /** A rate (0..1) as a percentage to UNIT_DIGITS.percent places, always that many. */
  percent(value: number | null | undefined): string;
  /** A decimal figure (an average position, a sentiment score) to UNIT_DIGITS.decimal places, always that many. */
  decimal(value: number | null | undefined): string;
  number(value: number | null | undefined): string;
  /** A change: signed, as a percentage to CHANGE_DIGITS places when `ratio` (a relative change), else as the number. */
  change(value: number | null | undefined, ratio?: boolean): string;
  /** A number of days, singular or plural ("1 day", "27 days"). */
  days(count: number): string;
  day(date: string): string;
  /** A day without its year, for chart axes. */
  shortDay(date: string): string;
  month(date: string): string;
  /**
   * How a metric of this unit (the catalogue's) is written: a percent (0..1) as a percentage to exactly one place,
   * money and other decimals to exactly two, a count as the API gives it (whole, or to two places at most). Money
   * names its `currency` (ISO 4217) when the data give one: "£1,234.50", "¥1,234.57" (two places for every
   * currency: a yen CPC of 1.23 rounded to "¥1" hid its change).
   */
  ofUnit(unit: string | undefined, currency?: string | null): (value: number | null | undefined) => string;
}

/**
 * The one rounding rule for a metric's figure: how many fraction digits its unit shows (a
 * percent's of the percentage), always that many, so that a column or a row of tiles reads
 * alike (2.10 above 2.08, not 2.1). The API's values are exact; every tile, chart and table —
 * and a table's total beside a KPI — writes them through this, so one value reads the same everywhere.
 * A count has no fixed places: it is whole but where an attribution split it (12.6 conversions), and
 * rounding that to 13 would show a number the API does not give.
 */
export const UNIT_DIGITS: Record<string, number> = { percent: 1, currency: 2, decimal: 2 };

/** A relative change's places as a percentage: one, for every change ("+3.0%" beside "-12.4%"). */
export const CHANGE_DIGITS = 1;

/** Whether a relative change reads 0 at CHANGE_DIGITS places: no change, neither better nor worse. */
export const readsAsNoChange = (ratio: number): boolean => Math.abs(ratio) < 0.5 * 10 ** -(CHANGE_DIGITS + 2);

const DASH = '–';
/** Exactly `digits` places (of a percentage when `percent`). */
const places = (digits: number, percent = false): Intl.NumberFormatOptions => ({
  ...(percent ? { style: 'percent' } : {}),
  minimumFractionDigits: digits,
  maximumFractionDigits: digits,
});

export function formats(requested: string | undefined): Formats {
  const locale = supported(requested) ?? supported(navigator.language) ?? 'en-US';
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: UNIT_DIGITS.decimal });
  const fixed = (digits: number, percent = false) => new Intl.NumberFormat(locale, places(digits, percent));
  const signedPercent = new Intl.NumberFormat(locale, {
    ...places(CHANGE_DIGITS, true),
    signDisplay: 'exceptZero',
  });
  const signedNumber = new Intl.NumberFormat(locale, { maximumFractionDigits: 2, signDisplay: 'exceptZero' });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const shortDay = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const missing = (value: number | null | undefined): value is null | undefined =>
    value === null || value === undefined || !Number.isFinite(value);
  const asNumber = (value: number | null | undefined) => (missing(value) ? DASH : number.format(value));
  const through = (format: Intl.NumberFormat) => (value: number | null | undefined) =>
    missing(value) ? DASH : format.format(value);
  const byUnit: Record<string, (value: number | null | undefined) => string> = {
    ...Object.fromEntries(
      Object.entries(UNIT_DIGITS).map(([unit, digits]) => [unit, through(fixed(digits, unit === 'percent'))]),
    ),
    count: asNumber,
  };
  const money = new Map<string, (value: number | null | undefined) => string>();
  // A code Intl does not know is written as a bare amount, as without one.
  const moneyIn = (currency: string) => {
    let format = money.get(currency);
    if (!format) {
      try {
        format = through(
          new Intl.NumberFormat(locale, { style: 'currency', currency, ...places(UNIT_DIGITS.currency!) }),
        );
      } catch {
        format = byUnit.currency!;
      }
      money.set(currency, format);
    }
    return format;
  };
  return {
    locale,
    percent: byUnit.percent!,
    decimal: byUnit.decimal!,
    number: asNumber,
    change: (value, ratio = true) => (missing(value) ? DASH : (ratio ? signedPercent : signedNumber).format(value)),
    days: (count) => `${number.format(count)} ${count === 1 ? 'day' : 'days'}`,
    day: (date) => day.format(new Date(`${date.slice(0, 10)}T00:00:00Z`)),
    shortDay: (date) => shortDay.format(new Date(`${date.slice(0, 10)}T00:00:00Z`)),
    month: (date) => month.format(new Date(`${date.slice(0, 10)}T00:00:00Z`)),
    ofUnit: (unit, currency) =>
      unit === 'currency' && currency ? moneyIn(currency) : (byUnit[unit ?? ''] ?? asNumber),
  };
}

function supported(locale: string | undefined): string | undefined {
  if (!locale) return undefined;
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale])[0];
  } catch {
    return undefined;
  }
}
