// The opportunities' scores and order, pure: the documented formulas, null on zero denominators,
// ties by text in code-point order, and the per-locale cut.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  pageOpportunity,
  promptOpportunity,
  rankPerLocale,
  sourceOpportunity,
} from '../../../src/ai-visibility/opportunities/opportunity-scores.js';
import { domainOwnership } from '../../../src/ai-visibility/sources/domains.js';

const prompt = (fields: Partial<Parameters<typeof promptOpportunity>[0]> = {}) => ({
  locale: 'en-US',
  promptId: 'pmt_1',
  prompt: 'best crm',
  runs: 4,
  brandVisible: 1,
  competitors: [],
  ...fields,
});

describe('prompt opportunities', () => {
  it(
    'score the runs at stake: runs × (best competitor visibility − brand visibility), the best ' +
      'competitor by visible runs, ties by name',
    () => {
      expect(
        promptOpportunity(
          prompt({
            competitors: [
              { name: 'Initech', visible: 3 },
              { name: 'Globex', visible: 3 },
              { name: 'Hooli', visible: 2 },
            ],
          }),
        ),
      ).toEqual({
        locale: 'en-US',
        promptId: 'pmt_1',
        prompt: 'best crm',
        runs: 4,
        brandVisibility: 0.25,
        bestCompetitor: { name: 'Globex', visibility: 0.75 },
        score: 2,
      });
    },
  );

  it('are not opportunities when no competitor is ahead of the brand', () => {
    expect(promptOpportunity(prompt({ competitors: [] }))).toBeNull();
    expect(promptOpportunity(prompt({ brandVisible: 2, competitors: [{ name: 'Globex', visible: 2 }] }))).toBeNull();
  });

  it('equal runs × the difference of the pooled rates for any counts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.nat(500), fc.nat(500), (runs, brand, competitor) => {
        const [brandVisible, visible] = [Math.min(brand, runs), Math.min(competitor, runs)];
        const item = promptOpportunity(prompt({ runs, brandVisible, competitors: [{ name: 'Globex', visible }] }));
        if (visible <= brandVisible) expect(item).toBeNull();
        else expect(item!.score).toBeCloseTo(runs * (item!.bestCompetitor.visibility! - item!.brandVisibility!), 9);
      }),
    );
  });
});

describe('source and page opportunities', () => {
  it('score a source by its citations in competitor-only answers and name the competitor that owns it', () => {
    const ownership = domainOwnership(['acme.com'], [{ name: 'Globex', domains: ['globex.com'] }]);
    expect(
      sourceOpportunity(
        { locale: 'en-US', domain: 'globex.com', citations: 3, answers: 2, competitors: ['Globex'] },
        ownership,
      ),
    ).toMatchObject({ competitor: 'Globex', score: 3 });
  });

  it(
    'score a page by the runs that read it without citing it; citedRate is pooled; never read ' +
      'uncited is no opportunity',
    () => {
      expect(
        pageOpportunity({
          locale: 'en-US',
          url: 'https://acme.com/',
          domain: 'acme.com',
          retrievals: 3,
          retrievedNotCited: 2,
        }),
      ).toMatchObject({ citedRate: 1 / 3, score: 2 });
      expect(
        pageOpportunity({
          locale: 'en-US',
          url: 'https://acme.com/',
          domain: 'acme.com',
          retrievals: 3,
          retrievedNotCited: 0,
        }),
      ).toBeNull();
    },
  );
});

describe('ranking', () => {
  it('orders by locale, score descending, then text in code-point order, and keeps `perLocale` of each locale', () => {
    const items = [
      { locale: 'en-US', score: 1, text: 'b' },
      { locale: 'de-DE', score: 1, text: 'z' },
      { locale: 'en-US', score: 1, text: 'B' },
      { locale: 'en-US', score: 5, text: 'c' },
      { locale: 'de-DE', score: 2, text: 'y' },
      { locale: 'en-US', score: 1, text: 'a' },
    ];
    expect(rankPerLocale(items, (item) => item.text, 10).map((item) => `${item.locale} ${item.text}`)).toEqual([
      'de-DE y',
      'de-DE z',
      'en-US c',
      'en-US B',
      'en-US a',
      'en-US b',
    ]);
    expect(rankPerLocale(items, (item) => item.text, 1).map((item) => `${item.locale} ${item.text}`)).toEqual([
      'de-DE y',
      'en-US c',
    ]);
  });

  it(
    'puts characters past U+FFFF after U+E000–U+FFFF, as code points (and PostgreSQL\'s "C") order ' +
      'them, not UTF-16 units',
    () => {
      const items = ['\u{1F600} emoji', '\uFF21 wide', '\uD7FF', 'z'].map((text) => ({
        locale: 'en-US',
        score: 1,
        text,
      }));
      expect(rankPerLocale(items, (item) => item.text, 10).map((item) => item.text)).toEqual([
        'z',
        '\uD7FF',
        '\uFF21 wide',
        '\u{1F600} emoji',
      ]);
      const best = promptOpportunity(
        prompt({
          brandVisible: 0,
          competitors: [
            { name: '\u{1F600} emoji', visible: 2 },
            { name: '\uFF21 wide', visible: 2 },
          ],
        }),
      );
      expect(best!.bestCompetitor.name).toBe('\uFF21 wide');
    },
  );
});
