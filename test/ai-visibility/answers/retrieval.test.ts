import { describe, expect, it } from 'vitest';
import { pageTotalsOf, pagesReadOf } from '../../../src/ai-visibility/answers/retrieval.js';

describe('pages read', () => {
  const page = (url: string, cited: boolean) => ({
    url,
    domain: new URL(url).hostname.replace(/^www\./, '').toLowerCase(),
    title: null,
    cited,
  });

  it('keeps each normalised URL once, where first read', () => {
    expect(
      pagesReadOf([
        page('https://ACME.com/a#top', true),
        page('https://b.com/', false),
        page('https://acme.com/a', true),
      ]),
    ).toEqual([
      { url: 'https://acme.com/a', domain: 'acme.com', cited: true },
      { url: 'https://b.com/', domain: 'b.com', cited: false },
    ]);
  });

  it('counts per scan and URL the runs that read it and those that did not cite it', () => {
    const totals = pageTotalsOf([
      [
        { url: 'https://acme.com/a', domain: 'acme.com', cited: true },
        { url: 'https://b.com/', domain: 'b.com', cited: false },
      ],
      [{ url: 'https://acme.com/a', domain: 'acme.com', cited: false }],
      [],
    ]);
    expect(Object.fromEntries(totals)).toEqual({
      'https://acme.com/a': { domain: 'acme.com', retrievals: 2, retrievedNotCited: 1 },
      'https://b.com/': { domain: 'b.com', retrievals: 1, retrievedNotCited: 1 },
    });
  });
});
