// The searches-and-retrievals fixture: one project, two locales, three days, chosen so that every
// figure of the search-queries list, the sources' retrieval counts and the three opportunity
// lists is known by hand (counts, pooled rates, order, ties). The expectations live beside it.
export interface FixtureRun {
  prompt: string;
  answer: string;
  brandMentions: number;
  totalMentions: number;
  position: number | null;
  sentiment: 'positive' | 'neutral' | 'negative' | null;
  competitors?: { name: string; mentions: number; position: number | null }[];
  citations?: { url: string; title?: string }[];
  searchQueries?: string[];
  retrieved?: { url: string; title?: string }[];
}

const globex = { name: 'Globex', mentions: 1, position: 1 };
const initech = { name: 'Initech', mentions: 1, position: 2 };

export const runOf = (prompt: string, brand: boolean, fields: Partial<FixtureRun> = {}): FixtureRun => {
  const competitorMentions = (fields.competitors ?? []).reduce((sum, competitor) => sum + competitor.mentions, 0);
  return {
    prompt,
    answer: `On ${prompt}: ${brand ? 'Acme' : 'others'}.`,
    brandMentions: brand ? 1 : 0,
    totalMentions: (brand ? 1 : 0) + competitorMentions,
    position: brand ? 1 : null,
    sentiment: brand ? 'neutral' : null,
    ...fields,
  };
};

/** [date, model, locale, runs] of each scan. */
export const FIXTURE_SCANS: [string, string, string, FixtureRun[]][] = [
  [
    '2026-11-01',
    'chatgpt',
    'en-US',
    [
      runOf('best crm', true, {
        competitors: [globex],
        searchQueries: ['Best CRM 2026', 'crm reviews'],
        citations: [{ url: 'https://acme.com/pricing' }],
        retrieved: [
          { url: 'https://ACME.com/pricing#top', title: 'Pricing' },
          { url: 'https://acme.com/blog' },
          { url: 'https://www.g2.com/crm' },
        ],
      }),
      runOf('crm pricing', false, {
        competitors: [globex, initech],
        searchQueries: [' best crm 2026 ', 'crm pricing'],
        citations: [{ url: 'https://www.reddit.com/r/crm' }, { url: 'https://globex.com/pricing' }],
        retrieved: [{ url: 'https://acme.com/pricing' }, { url: 'https://www.reddit.com/r/crm' }],
      }),
      runOf('crm for startups', false, {
        searchQueries: ['crm reviews'],
        citations: [{ url: 'https://forbes.com/x' }],
      }),
    ],
  ],
  [
    '2026-11-02',
    'chatgpt',
    'en-US',
    [
      runOf('best crm', false, {
        competitors: [globex],
        searchQueries: ['best crm 2026'],
        citations: [{ url: 'https://www.reddit.com/r/crm' }],
        retrieved: [{ url: 'https://acme.com/pricing' }],
      }),
      runOf('crm pricing', false, { competitors: [{ ...initech, position: 1 }], searchQueries: ['crm pricing'] }),
    ],
  ],
  ['2026-11-01', 'gemini', 'en-US', [runOf('best crm', true, { searchQueries: ['best crm 2026'] })]],
  [
    '2026-11-01',
    'chatgpt',
    'de-DE',
    [
      runOf('best crm', true, {
        searchQueries: ['bestes crm'],
        citations: [{ url: 'https://www.reddit.com/r/crm' }],
        retrieved: [{ url: 'https://acme.com/de' }],
      }),
      runOf('crm pricing', false, {
        competitors: [globex],
        searchQueries: ['bestes crm'],
        citations: [{ url: 'https://t3n.de/crm' }],
        retrieved: [{ url: 'https://acme.com/de' }],
      }),
      runOf('crm with email', false, {
        competitors: [initech],
        citations: [
          { url: 'https://www.reddit.com/r/x' },
          { url: 'https://capterra.com/a' },
          { url: 'https://capterra.com/b' },
          { url: 'https://zdnet.de/crm' },
        ],
      }),
    ],
  ],
];

export const FIXTURE_RANGE = 'dateFrom=2026-11-01&dateTo=2026-11-02';

/** GET …/search-queries over the fixture's range. */
export const EXPECTED_SEARCH_QUERIES = [
  { locale: 'de-DE', query: 'bestes crm', runs: 2, promptCount: 2, visibilityCount: 1, visibility: 0.5 },
  { locale: 'en-US', query: 'best crm 2026', runs: 4, promptCount: 2, visibilityCount: 2, visibility: 0.5 },
  { locale: 'en-US', query: 'crm pricing', runs: 2, promptCount: 1, visibilityCount: 0, visibility: 0 },
  { locale: 'en-US', query: 'crm reviews', runs: 2, promptCount: 2, visibilityCount: 1, visibility: 0.5 },
];

/** The same with model=chatgpt: gemini's run of "best crm 2026" leaves. */
export const EXPECTED_SEARCH_QUERIES_CHATGPT_EN = [
  { locale: 'en-US', query: 'best crm 2026', runs: 3, promptCount: 2, visibilityCount: 1, visibility: 1 / 3 },
  { locale: 'en-US', query: 'crm pricing', runs: 2, promptCount: 1, visibilityCount: 0, visibility: 0 },
  { locale: 'en-US', query: 'crm reviews', runs: 2, promptCount: 2, visibilityCount: 1, visibility: 0.5 },
];

/** GET …/opportunities over the fixture's range (prompt ids are filled in by the test). */
export const EXPECTED_OPPORTUNITIES = {
  prompts: [
    // Ties (score 1 in de-DE) by the prompt's text.
    {
      locale: 'de-DE',
      prompt: 'crm pricing',
      runs: 1,
      brandVisibility: 0,
      bestCompetitor: { name: 'Globex', visibility: 1 },
      score: 1,
    },
    {
      locale: 'de-DE',
      prompt: 'crm with email',
      runs: 1,
      brandVisibility: 0,
      bestCompetitor: { name: 'Initech', visibility: 1 },
      score: 1,
    },
    {
      locale: 'en-US',
      prompt: 'crm pricing',
      runs: 2,
      brandVisibility: 0,
      bestCompetitor: { name: 'Initech', visibility: 1 },
      score: 2,
    },
    // best crm en-US: 3 runs (two chatgpt, one gemini), brand 2/3, Globex 2/3: no gap, not listed.
  ],
  sources: [
    {
      locale: 'de-DE',
      domain: 'capterra.com',
      citations: 2,
      answers: 1,
      competitors: ['Initech'],
      competitor: null,
      score: 2,
    },
    {
      locale: 'de-DE',
      domain: 't3n.de',
      citations: 1,
      answers: 1,
      competitors: ['Globex'],
      competitor: null,
      score: 1,
    },
    {
      locale: 'de-DE',
      domain: 'zdnet.de',
      citations: 1,
      answers: 1,
      competitors: ['Initech'],
      competitor: null,
      score: 1,
    },
    {
      locale: 'en-US',
      domain: 'reddit.com',
      citations: 2,
      answers: 2,
      competitors: ['Globex', 'Initech'],
      competitor: null,
      score: 2,
    },
    {
      locale: 'en-US',
      domain: 'globex.com',
      citations: 1,
      answers: 1,
      competitors: ['Globex', 'Initech'],
      competitor: 'Globex',
      score: 1,
    },
  ],
  pages: [
    {
      locale: 'de-DE',
      url: 'https://acme.com/de',
      domain: 'acme.com',
      retrievals: 2,
      retrievedNotCited: 2,
      citedRate: 0,
      score: 2,
    },
    {
      locale: 'en-US',
      url: 'https://acme.com/pricing',
      domain: 'acme.com',
      retrievals: 3,
      retrievedNotCited: 2,
      citedRate: 1 / 3,
      score: 2,
    },
    {
      locale: 'en-US',
      url: 'https://acme.com/blog',
      domain: 'acme.com',
      retrievals: 1,
      retrievedNotCited: 1,
      citedRate: 0,
      score: 1,
    },
  ],
};

/** With model=chatgpt, en-US: best crm now shows its gap (brand 1 of 2 runs, Globex 2 of 2). */
export const EXPECTED_PROMPT_OPPORTUNITIES_CHATGPT_EN = [
  {
    locale: 'en-US',
    prompt: 'crm pricing',
    runs: 2,
    brandVisibility: 0,
    bestCompetitor: { name: 'Initech', visibility: 1 },
    score: 2,
  },
  {
    locale: 'en-US',
    prompt: 'best crm',
    runs: 2,
    brandVisibility: 0.5,
    bestCompetitor: { name: 'Globex', visibility: 1 },
    score: 1,
  },
];
