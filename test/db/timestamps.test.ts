import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../../src/db/timestamps.js';
import { connectDatabase } from '../../src/db/client.js';
import { createTestDatabase } from '../support/database.js';

// postgres-date, pg's own parser, itself: pg.types.getTypeParser would give ours back, since
// importing db/client installs it.
const reference = createRequire(import.meta.url)('postgres-date') as (text: string) => Date;
const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** A timestamptz as PostgreSQL's ISO DateStyle writes it: fraction without trailing zeros, offset ±HH[:MM[:SS]]. */
const pgText = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    micros: fc.integer({ min: 0, max: 999_999 }),
    // Whole hours mostly; half and quarter hours; now and then local mean time's seconds.
    offset: fc
      .tuple(fc.integer({ min: -15, max: 15 }), fc.constantFrom(0, 0, 30, 45), fc.constantFrom(0, 0, 0, 0, 17))
      .map(([hours, minutes, seconds]) => (hours < 0 ? -1 : 1) * (Math.abs(hours) * 3600 + minutes * 60 + seconds)),
  })
  .map(({ year, month, day, hour, minute, second, micros, offset }) => {
    const fraction = micros ? `.${pad(micros, 6).replace(/0+$/, '')}` : '';
    const abs = Math.abs(offset);
    const minutes = abs % 3600 ? `:${pad(Math.floor((abs % 3600) / 60))}` : '';
    const seconds = abs % 60 ? `:${pad(abs % 60)}` : '';
    const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600))}${minutes}${seconds}`;
    return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}${fraction}${zone}`;
  });

describe('parseTimestamptz', () => {
  it('reads every common-shaped timestamptz as pg does, and declines the rest', () => {
    fc.assert(
      fc.property(pgText, (text) => {
        const ours = parseTimestamptz(text);
        const common =
          /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/.test(text) && Number(text.slice(0, 4)) >= 100;
        expect(ours === null).toBe(!common);
        if (ours) expect(ours.getTime()).toBe(reference(text).getTime());
      }),
      { numRuns: 20_000 },
    );
  });

  it('declines what is not its shape', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '2026-11-23 19:31:06+00 BC',
      '2026-11-23 19:31:06+05:30:15',
      '12026-11-23 19:31:06+00',
      '0099-01-01 00:00:00+00',
      '2026-11-23T19:31:06Z',
      '2026-11-23 19:31:0x+00',
      '2026-11-23 19:31:06+0',
    ]) {
      expect(parseTimestamptz(text)).toBeNull();
    }
  });

  it('reads what PostgreSQL sends in any session time zone', async () => {
    const database = connectDatabase(await createTestDatabase(), 1);
    const client = await database.pool.connect();
    try {
      // Half-hour and 45-minute zones, and 1871 and Monrovia's 1950, whose offsets carry seconds (pg's
      // parser reads those).
      for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'Africa/Monrovia']) {
        await client.query(`SET TIME ZONE '${zone}'`);
        const { rows } = await client.query<{ at: Date; iso: string }>(
          `SELECT at, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso
             FROM (VALUES (timestamptz '2026-11-23 19:31:06.123456+00'), ('1950-06-30 23:59:59.9995+00'),
               ('1871-01-01 00:00:00+00'), ('2026-03-29 01:00:00.5+00')) AS t(at)`,
        );
        for (const row of rows) expect(row.at.toISOString(), zone).toBe(row.iso);
      }
    } finally {
      client.release();
      await database.close();
    }
  });
});
