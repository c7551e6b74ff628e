// The one civil-date check (years 0001–9999) and its arithmetic, as properties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addYears,
  civilDateProblem,
  clampDate,
  daysBetweenInclusive,
  EARLIEST_DATE,
  isCivilDate,
  LATEST_DATE,
  civilDateOf,
  dayNumber,
  startOfWeek,
} from '../../src/dates/civil-date.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const text = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

/** A reference built on setUTCFullYear, which takes years 0–99 as they are. */
function exists(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The arithmetic as it was, on Date and setUTCFullYear: the oracle the day numbers must agree with. */
const DAY_MS = 86_400_000;
function dateOracleDayNumber(year: number, month: number, day: number): number {
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  return Math.round(instant.getTime() / DAY_MS);
}
function dateOracleCivil(days: number): string {
  const year = new Date(days * DAY_MS).getUTCFullYear();
  if (year < 0) return '0000-00-00';
  if (year > 9999) return '9999-99-99';
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

const validDate = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

describe('civilDateProblem', () => {
  it('takes exactly the dates that exist in years 0001–9999', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (year, month, day) => {
          expect(isCivilDate(text(year, month, day))).toBe(year >= 1 && exists(year, month, day));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('refuses year 0000 and other shapes with the range in the message', () => {
    expect(civilDateProblem('0000-01-01')).toMatch(/0001-01-01 to 9999-12-31.*year 0000/);
    for (const value of [
      '10000-01-01',
      '-0001-01-01',
      '2026-1-01',
      '2026-02-30',
      '2026-02-29',
      ' 2026-01-01',
      '2026-01-01T00:00:00Z',
      '٢٠٢٦-٠١-٠١',
    ])
      expect(isCivilDate(value), value).toBe(false);
    expect(isCivilDate('0001-01-01')).toBe(true);
    expect(isCivilDate('0099-02-28')).toBe(true);
    expect(isCivilDate('2024-02-29')).toBe(true);
    expect(isCivilDate('9999-12-31')).toBe(true);
  });

  it('refuses any string that is not 10 characters of the shape', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) expect(civilDateProblem(value)).not.toBeNull();
      }),
      { numRuns: 5000 },
    );
  });
});

describe('date arithmetic', () => {
  it('does not read years 0001–0099 as 1901–1999 (Date.UTC would)', () => {
    expect(addDays('0001-01-15', -14)).toBe('0001-01-01');
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
    expect(daysBetweenInclusive({ from: '0001-01-01', to: '0001-12-31' })).toBe(365);
    expect(startOfWeek('0001-01-03')).toBe('0001-01-01'); // 1 January of year 1 (proleptic Gregorian) was a Monday
  });

  it('day numbers agree with Date for every year 0000–9999 and months and days out of range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (year, month, day) => {
          expect(dayNumber(year, month, day)).toBe(dateOracleDayNumber(year, month, day));
        },
      ),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -4_000_000, max: 4_000_000 }), (days) => {
        expect(civilDateOf(days)).toBe(dateOracleCivil(days));
      }),
      { numRuns: 20_000 },
    );
    for (const days of [-719_528, -719_163, -719_162, 0, 2_932_896, 2_932_897])
      expect(civilDateOf(days), String(days)).toBe(dateOracleCivil(days));
    expect(addDays('9999-99-99', 1)).toBe('9999-99-99');
    expect(addDays('0000-00-00', -1)).toBe('0000-00-00');
  });

  it('startOfWeek is the Monday on or before the date', () => {
    fc.assert(
      fc.property(validDate, (date) => {
        const monday = startOfWeek(date);
        expect(new Date(`${monday}T00:00:00Z`).getUTCDay()).toBe(1);
        expect(daysBetweenInclusive({ from: monday, to: date })).toBeLessThanOrEqual(7);
      }),
      { numRuns: 5000 },
    );
  });

  it('adding n days and counting back gives n, anywhere in the range', () => {
    fc.assert(
      fc.property(validDate, fc.integer({ min: -5000, max: 5000 }), (date, days) => {
        const moved = addDays(date, days);
        if (!isCivilDate(moved)) return;
        expect(addDays(moved, -days)).toBe(date);
        const [from, to] = days >= 0 ? [date, moved] : [moved, date];
        expect(daysBetweenInclusive({ from, to })).toBe(Math.abs(days) + 1);
      }),
      { numRuns: 5000 },
    );
  });

  it('a result outside the range sorts outside it, and clampDate brings it back', () => {
    fc.assert(
      fc.property(validDate, fc.integer({ min: -4_000_000, max: 4_000_000 }), (date, days) => {
        const moved = addDays(date, days);
        const clamped = clampDate(moved);
        expect(isCivilDate(clamped)).toBe(true);
        if (!isCivilDate(moved)) expect(clamped === EARLIEST_DATE || clamped === LATEST_DATE).toBe(true);
        else expect(clamped).toBe(moved);
      }),
      { numRuns: 5000 },
    );
    expect(clampDate(addDays('0001-01-15', -29))).toBe(EARLIEST_DATE);
    expect(clampDate(addDays('9999-12-20', 29))).toBe(LATEST_DATE);
  });

  it('addYears keeps the calendar date and turns 29 February into 28 February', () => {
    expect(addYears('2024-02-29', -1)).toBe('2023-02-28');
    expect(addYears('0004-02-29', -3)).toBe('0001-02-28');
    expect(addYears('0002-06-30', -1)).toBe('0001-06-30');
  });
});
