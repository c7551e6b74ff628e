import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orderedQueryKeys, pageTotalsOf, pagesReadOf, querySetId } from '../../src/ai-visibility/retrieval.js';

describe('querySetId', () => {
  it('is the first 16 bytes of SHA-256 over the keys in code-point order, each as "<bytes>:<key>"', () => {
    const expected = createHash('sha256').update('1:a1:b8:Ａ wide10:😀 emoji').digest('hex').slice(0, 32);
    expect(querySetId(['b', '\u{1F600} emoji', 'a', '\uFF21 wide'])!.replaceAll('-', '')).toBe(expected);
  });

  it('names a set, not an order, and tells apart keys that would run together', () => {
    expect(querySetId(['x', 'y'])).toBe(querySetId(['y', 'x']));
    expect(querySetId(['ab', 'c'])).not.toBe(querySetId(['a', 'bc']));
    expect(querySetId(['1:a'])).not.toBe(querySetId(['a', ':a']));
    expect(querySetId(['x'])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('has no set for a run without searches', () => {
    expect(querySetId([])).toBeNull();
  });

  it('orders keys by code point (bytes), not UTF-16 units', () => {
    expect(orderedQueryKeys(['b', '\u{1F600} emoji', 'a', '\uFF21 wide'])).toEqual(['a', 'b', '\uFF21 wide', '\u{1F600} emoji']);
  });
});

describe('pages read', () => {
  const page = (url: string, cited: boolean) => ({ url, domain: new URL(url).hostname.replace(/^www\./, '').toLowerCase(), title: null, cited });

  it('keeps each normalised URL once, where first read', () => {
    expect(pagesReadOf([page('https://ACME.com/a#top', true), page('https://b.com/', false), page('https://acme.com/a', true)])).toEqual([
      { url: 'https://acme.com/a', domain: 'acme.com', cited: true },
      { url: 'https://b.com/', domain: 'b.com', cited: false },
    ]);
  });

  it('counts per scan and URL the runs that read it and those that did not cite it', () => {
    const totals = pageTotalsOf([
      [{ url: 'https://acme.com/a', domain: 'acme.com', cited: true }, { url: 'https://b.com/', domain: 'b.com', cited: false }],
      [{ url: 'https://acme.com/a', domain: 'acme.com', cited: false }],
      [],
    ]);
    expect(Object.fromEntries(totals)).toEqual({
      'https://acme.com/a': { domain: 'acme.com', retrievals: 2, retrievedNotCited: 1 },
      'https://b.com/': { domain: 'b.com', retrievals: 1, retrievedNotCited: 1 },
    });
  });
});
