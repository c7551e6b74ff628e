import { describe, expect, it } from 'vitest';
import { ifNoneMatchMatches, negotiateEncoding, strongEtag } from '../../src/http/representation.js';

describe('strong ETags', () => {
  it('are the same for the same body and differ for another', () => {
    expect(strongEtag('{"a":1}')).toBe(strongEtag('{"a":1}'));
    expect(strongEtag('{"a":1}')).not.toBe(strongEtag('{"a":2}'));
    expect(strongEtag('x')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });
});

describe('If-None-Match', () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"abc-br"', true],
    ['"abc-gzip"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abd"', false],
    ['abc', false],
    ['', false],
  ])('%s → %s', (header, matches) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(matches);
  });
  it('is absent → no match', () => expect(ifNoneMatchMatches(null, etag)).toBe(false));
});

describe('Accept-Encoding negotiation', () => {
  it.each([
    [null, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['GZIP', 'gzip'],
  ])('%s → %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });
});
