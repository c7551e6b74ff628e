// Locales are BCP 47 tags checked for form and compared without regard to case: one function
// decides both for every door (filters, exports, project locales).
import { describe, expect, it } from 'vitest';
import { canonicalLocale, LOCALE_PATTERN, MAX_LOCALE_LENGTH } from '../../../src/ai-visibility/common/locales.js';
import { localeFilterOf, runFilterOf } from '../../../src/ai-visibility/common/read-filters.js';
import { ApiError } from '../../../src/errors/index.js';

describe('canonicalLocale', () => {
  it('writes a well-formed tag in the RFC 5646 case conventions', () => {
    expect(canonicalLocale('en-us')).toBe('en-US');
    expect(canonicalLocale('EN-US')).toBe('en-US');
    expect(canonicalLocale('de')).toBe('de');
    expect(canonicalLocale('xx')).toBe('xx');
    expect(canonicalLocale('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(canonicalLocale('es-419')).toBe('es-419');
    expect(canonicalLocale('sl-ROZAJ-biske')).toBe('sl-rozaj-biske');
    expect(canonicalLocale('de-CH-1996')).toBe('de-CH-1996');
    // After a singleton (extension, private use) every subtag is lower case, even two letters.
    expect(canonicalLocale('en-US-U-CA-GREGORY')).toBe('en-US-u-ca-gregory');
    expect(canonicalLocale('en-x-US')).toBe('en-x-us');
  });

  it('refuses what is not a language tag', () => {
    for (const tag of [
      'english',
      'xx-',
      '',
      'e',
      'en_US',
      'en--US',
      'en-US-',
      '-en',
      'en-a',
      'x-private',
      'i-klingon',
      'en-US-x',
      'abcd',
      'en US',
      'de-DE\u0000',
      'ℯn-US',
    ]) {
      expect(canonicalLocale(tag), tag).toBeNull();
    }
    expect(canonicalLocale(`en-${'a'.repeat(8)}-`.repeat(20))).toBeNull();
  });

  // Importers fill a field from its pattern and cut it at maxLength (Postman: 6 in 20 imports sent
  // a cut tag ending in "-"); a pattern with no match past the length leaves nothing to cut.
  it('states a pattern whose longest match fits MAX_LOCALE_LENGTH', () => {
    expect(LOCALE_PATTERN).not.toMatch(/[*+]/);
    const longest =
      'abc-abc-abc-abc-Abcd-419-abcdefgh-abcdefgh-u-abcdefgh-abcdefgh-abcdefgh-abcdefgh-x-abcdefgh-abcdefgh';
    expect(longest).toHaveLength(MAX_LOCALE_LENGTH);
    expect(new RegExp(LOCALE_PATTERN).test(longest)).toBe(true);
    for (const longer of [`${longest}-a`, longest.replace('-u-', '-abcdefgh-u-'), longest.replace('-x-', '-t-ab-x-')]) {
      expect(new RegExp(LOCALE_PATTERN).test(longer), longer).toBe(false);
    }
  });
});

describe('the locale filter', () => {
  const now = new Date('2026-11-25T12:00:00Z');

  it('is canonical, so en-us and en-US are one filter (one cache entry, one answer)', () => {
    expect(runFilterOf({ locale: 'en-us' }, now)).toEqual(runFilterOf({ locale: 'en-US' }, now));
    expect(localeFilterOf(null)).toBeNull();
    expect(localeFilterOf(undefined)).toBeNull();
  });

  it('refuses a malformed tag with a 400 naming locale', () => {
    for (const tag of ['english', 'xx-']) {
      const error = (() => {
        try {
          localeFilterOf(tag);
        } catch (thrown) {
          return thrown;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'locale' });
    }
  });
});
