// Numbers and dates as the person's locale writes them (the host's locale, else the browser's).
export interface Formats {
  locale: string;
  percent(value: number | null | undefined): string;
  number(value: number | null | undefined): string;
  /** A change: signed, as a percentage when `ratio` (a relative change), else as the number. */
  change(value: number | null | undefined, ratio?: boolean): string;
  day(date: string): string;
  /** A day without its year, for chart axes. */
  shortDay(date: string): string;
  month(date: string): string;
  /**
   * How a metric of this unit (the catalogue's) is written, rounded by UNIT_DIGITS: a count whole,
   * a percent (0..1) as a percentage, money to two places (always), other decimals to at most two.
   */
  ofUnit(unit: string | undefined): (value: number | null | undefined) => string;
}

/**
 * The one rounding rule for a metric's figure: how many fraction digits its unit shows (a
 * percent's of the percentage). The API's values are exact; every tile, chart and table — and a
 * table's total beside a KPI — writes them through this, so one value reads the same everywhere.
 */
export const UNIT_DIGITS: Record<string, number> = { count: 0, percent: 1, currency: 2, decimal: 2 };

const DASH = '–';

export function formats(requested: string | undefined): Formats {
  const locale = supported(requested) ?? supported(navigator.language) ?? 'en-US';
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: UNIT_DIGITS.percent });
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: UNIT_DIGITS.decimal });
  const signedPercent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  const signedNumber = new Intl.NumberFormat(locale, { maximumFractionDigits: 2, signDisplay: 'exceptZero' });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const shortDay = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const missing = (value: number | null | undefined): value is null | undefined => value === null || value === undefined || !Number.isFinite(value);
  const asPercent = (value: number | null | undefined) => (missing(value) ? DASH : percent.format(value));
  const asNumber = (value: number | null | undefined) => (missing(value) ? DASH : number.format(value));
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: UNIT_DIGITS.count });
  // Money keeps its cents (0.80, not 0.8).
  const cents = UNIT_DIGITS.currency;
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: cents, maximumFractionDigits: cents });
  const through = (format: Intl.NumberFormat) => (value: number | null | undefined) =>
    (missing(value) ? DASH : format.format(value));
  const byUnit: Record<string, (value: number | null | undefined) => string> = {
    count: through(count), currency: through(money), percent: asPercent,
  };
  return {
    locale,
    percent: asPercent,
    number: asNumber,
    change: (value, ratio = true) => (missing(value) ? DASH : (ratio ? signedPercent : signedNumber).format(value)),
    day: (date) => day.format(new Date(`${date.slice(0, 10)}T00:00:00Z`)),
    shortDay: (date) => shortDay.format(new Date(`${date.slice(0, 10)}T00:00:00Z`)),
    month: (date) => month.format(new Date(`${date.slice(0, 10)}T00:00:00Z`)),
    ofUnit: (unit) => byUnit[unit ?? ''] ?? asNumber,
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
