import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstant } from '../../src/dates/instant.js';

describe('isoInstant', () => {
  it('prints every instant exactly as toISOString does', () => {
    fc.assert(fc.property(fc.date({ noInvalidDate: true }), (date) => {
      expect(isoInstant(date)).toBe(date.toISOString());
    }), { numRuns: 5000 });
  });

  it('pads each field', () => {
    expect(isoInstant(new Date(Date.UTC(1000, 0, 1, 0, 0, 0, 5)))).toBe('1000-01-01T00:00:00.005Z');
    expect(isoInstant(new Date(Date.UTC(2026, 10, 23, 9, 5, 7, 45)))).toBe('2026-11-23T09:05:07.045Z');
    expect(isoInstant(new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)))).toBe('9999-12-31T23:59:59.999Z');
  });
});
