// Instants (timestamps) as the API writes them: RFC 3339 at UTC with milliseconds, exactly what
// Date.prototype.toISOString gives. Written by hand because every DateTime in every answer passes
// through here, and toISOString or a Date left to JSON.stringify costs several times more
// (docs/decisions/request-path-allocations.md).
import { isCivilDate } from './civil-date.js';

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const threeDigits = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `2026-11-23T19:31:06.123Z` for a valid Date; toISOString's own output outside years 1000–9999 (rarer widths and
 * signs).
 */
export function isoInstant(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  const day = `${year}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}`;
  const time = `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}`;
  return `${day}T${time}.${threeDigits(date.getUTCMilliseconds())}Z`;
}

const INSTANT_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Whether `value` is an instant exactly as the service writes one (isoInstant's form) in years
 * 0001–9999, the ones PostgreSQL stores. Date.parse is no check: it takes `0`, RFC 1123 dates and
 * six-digit years, which PostgreSQL then refuses.
 */
export function isInstant(value: string): boolean {
  if (!INSTANT_FORM.test(value) || !isCivilDate(value.slice(0, 10))) return false;
  const ms = Date.parse(value);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === value;
}
