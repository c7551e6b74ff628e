import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInstant, isoInstant } from '../../src/dates/instant.js';

describe('isoInstant', () => {
  it('prints every instant exactly as toISOString does', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(isoInstant(date)).toBe(date.toISOString());
      }),
      { numRuns: 5000 },
    );
  });

  it('pads each field', () => {
    expect(isoInstant(new Date(Date.UTC(1000, 0, 1, 0, 0, 0, 5)))).toBe('1000-01-01T00:00:00.005Z');
    expect(isoInstant(new Date(Date.UTC(2026, 10, 23, 9, 5, 7, 45)))).toBe('2026-11-23T09:05:07.045Z');
    expect(isoInstant(new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)))).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('isInstant', () => {
  it('takes what isoInstant writes in years 0001–9999', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00.000Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (date) => {
          expect(isInstant(isoInstant(date))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses what Date.parse takes but PostgreSQL does not, and every other spelling', () => {
    for (const value of [
      '0',
      '1',
      '99999',
      '+275760-09-13T00:00:00.000Z',
      '-000001-01-01T00:00:00.000Z',
      'Tue, 01 Jan 0000 00:00:00 GMT',
      '0000-01-01T00:00:00.000Z',
      '2026-11-23',
      '2026-11-23T09:05:07Z',
      '2026-11-23T09:05:07.045+00:00',
      '2026-02-30T00:00:00.000Z',
      '2026-11-23T24:00:00.000Z',
      '2026-11-23T09:60:00.000Z',
    ]) {
      expect(isInstant(value), value).toBe(false);
    }
  });
});
