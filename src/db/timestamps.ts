// timestamptz values as PostgreSQL writes them in text ('2026-11-23 19:31:06.123456+00', the ISO
// DateStyle), read by character position: pg's own parser (postgres-date) runs three regular
// expressions per value and a list reads hundreds (docs/decisions/data-access.md). This reads the
// common shape and leaves every other shape (BC, infinity, offsets with seconds, years outside
// 100–9999) to pg's parser.

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);
const SEPARATORS: readonly [number, number][] = [
  [4, 45],
  [7, 45],
  [10, 32],
  [13, 58],
  [16, 58],
]; // - - ' ' : :
const DIGITS: readonly number[] = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

/**
 * The instant, or null when the text is not 'YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]' (the caller's
 * parser then reads it).
 */
export function parseTimestamptz(text: string): Date | null {
  const length = text.length;
  if (length < 22) return null;
  for (const [at, code] of SEPARATORS) if (text.charCodeAt(at) !== code) return null;
  for (const at of DIGITS) if (!isDigit(text, at)) return null;
  let at = 19;
  let milliseconds = 0;
  if (text.charCodeAt(at) === 46) {
    // Microseconds truncate to milliseconds, as Date and postgres-date do.
    let scale = 100;
    for (at++; at < length && isDigit(text, at); at++, scale /= 10)
      if (scale >= 1) milliseconds += digit(text, at) * scale;
  }
  const sign = text.charCodeAt(at);
  if ((sign !== 43 && sign !== 45) || !isDigit(text, at + 1) || !isDigit(text, at + 2)) return null;
  let offsetMinutes = twoDigits(text, at + 1) * 60;
  at += 3;
  if (at < length && text.charCodeAt(at) === 58) {
    if (!isDigit(text, at + 1) || !isDigit(text, at + 2)) return null;
    offsetMinutes += twoDigits(text, at + 1);
    at += 3;
  }
  if (at !== length) return null;
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + twoDigits(text, 2);
  // Date.UTC reads years 0–99 as 1900–1999.
  if (year < 100) return null;
  const local = Date.UTC(
    year,
    twoDigits(text, 5) - 1,
    twoDigits(text, 8),
    twoDigits(text, 11),
    twoDigits(text, 14),
    twoDigits(text, 17),
    milliseconds,
  );
  return new Date(local - (sign === 45 ? -offsetMinutes : offsetMinutes) * 60_000);
}

function isDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
}
