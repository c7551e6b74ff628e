// What the views are handed when the names, titles and answers are hostile: one unbroken
// 100 000-character answer, a 150-character title without a space, U+202E (right-to-left
// override) inside one competitor's name, and a one-letter brand over long answers; among the
// AI-visibility view's competitors, long names too. Each view's data has the shape of its GraphQL
// operation's `data`.
export const RLO = '\u202E';
export const EVIL = `Evil${RLO}corp`;
/** Names whose letters must read left to right wherever they appear. */
export const INNOCENT = ['Acme', 'Beta', 'sessions'];
export const LONG_TITLE = `Quarterly${'Performance'.repeat(13)}`.slice(0, 150);
const LONG_WORD = 'x'.repeat(100_000);
const LONG_URL = `https://example.com/${'p'.repeat(3_000)}`;
const competitors = [EVIL, 'Acme', 'Beta'];
const rates = { totalRuns: 5, visibility: 0.4, shareOfVoice: 0.3, averagePosition: 1.5, sentiment: 0.2 };
const range = { from: '2026-10-22', to: '2026-11-20' };

export const project = { id: 'hostile', name: LONG_TITLE, brand: 'A', competitors };

function answer(index: number, text: string) {
  return {
    id: `run_${index}`,
    promptId: 'prm_hostile',
    date: '2026-11-20',
    model: 'chatgpt',
    locale: 'en-US',
    text,
    brandMentions: 1,
    totalMentions: 3,
    position: 1,
    sentiment: 0.5,
    competitors: competitors.map((name, position) => ({ name, mentions: 1, position: position + 2 })),
    citations: [{ position: 1, url: LONG_URL, domain: 'example.com', title: LONG_TITLE }],
    searchQueries: [EVIL, 'Acme reviews', 'Beta reviews'],
    retrieved: [{ url: LONG_URL, domain: 'example.com', title: EVIL, cited: false }],
  };
}

/** Five answers: one a single 100 000-character word, four with the brand "A" as a word 10 000 times. */
export const answersData = {
  aiVisibilityProjects: { data: [project] },
  aiVisibilityPrompts: {
    data: [{ id: 'prm_hostile', text: LONG_TITLE, topic: null, totals: [{ locale: 'en-US', ...rates }] }],
  },
  aiVisibilityAnswers: {
    data: [answer(0, LONG_WORD), ...[1, 2, 3, 4].map((index) => answer(index, 'A banana a day. '.repeat(5_000)))],
    meta: { total: 5, nextCursor: null },
  },
};

const days = ['2026-11-18', '2026-11-19', '2026-11-20'];

/** Competitors of the AI-visibility view besides the others: a long name of words, and one long word. */
const LONG_NAMES = ['Contoso Mountain and Trail Supplies International Trading Company', LONG_TITLE];

export const visibilityData = {
  node: {
    ...project,
    competitors: [...competitors, ...LONG_NAMES],
    models: ['chatgpt', 'gemini'],
    locales: ['en-US'],
    trend: days.flatMap((period) =>
      ['chatgpt', 'gemini'].map((model) => ({ period, model, locale: 'en-US', ...rates })),
    ),
    metrics: {
      data: {
        range,
        totals: [
          {
            locale: 'en-US',
            ...rates,
            positiveCount: 2,
            neutralCount: 2,
            negativeCount: 1,
            byModel: [{ model: 'chatgpt', ...rates }],
            competitors: [...competitors, ...LONG_NAMES].map((name) => ({ name, ...rates })),
          },
        ],
      },
    },
    sources: {
      data: {
        rows: [
          {
            locale: 'en-US',
            domain: `${'d'.repeat(300)}.example`,
            citations: 4,
            answersCiting: 3,
            citationShare: 0.5,
            answerShare: 0.6,
            retrievals: 5,
            retrievedNotCited: 1,
            owned: false,
            competitor: EVIL,
          },
        ],
      },
    },
    opportunities: {
      prompts: [
        {
          locale: 'en-US',
          prompt: LONG_TITLE,
          runs: 3,
          brandVisibility: 0,
          bestCompetitor: { name: EVIL, visibility: 0.5 },
          score: 3,
        },
      ],
      sources: [{ locale: 'en-US', domain: 'reviews.example', citations: 4, answers: 3, competitors, score: 4 }],
      pages: [{ locale: 'en-US', url: LONG_URL, retrievals: 5, retrievedNotCited: 4, score: 4 }],
    },
  },
};

const provider = 'google_analytics';
const points = days.map((date, index) => ({
  date,
  value: 100 + index,
  previousValue: null,
  daysInRange: 1,
  partial: false,
  daysWithData: 1,
  compareBucket: null,
}));

/**
 * A KPI titled with U+202E inside, another with a 150-character title, a chart with that title
 * beside another, a table row of one long word.
 */
export const reportData = {
  report: {
    data: {
      id: 'rep_hostile',
      name: LONG_TITLE,
      definition: {
        widgets: [
          { id: 'w1', type: 'kpi', title: `Evil${RLO}widget`, provider, metrics: ['sessions'], dimension: null },
          { id: 'w5', type: 'kpi', title: LONG_TITLE, provider, metrics: ['users'], dimension: null },
          {
            id: 'w2',
            type: 'line_chart',
            title: LONG_TITLE,
            provider,
            metrics: ['sessions', 'users'],
            dimension: null,
          },
          { id: 'w3', type: 'line_chart', title: 'Next chart', provider, metrics: ['users'], dimension: null },
          { id: 'w4', type: 'table', title: `Evil${RLO}table`, provider, metrics: ['sessions'], dimension: 'campaign' },
        ],
        dateConfig: { datePreset: 'last_7_days', comparePreset: 'none', timezone: 'UTC' },
      },
    },
  },
  reportData: {
    data: {
      reportId: 'rep_hostile',
      range: { ...range, days: 30, daysWithData: 30 },
      compareRange: null,
      kpis: [
        { widgetId: 'w1', metric: 'sessions', value: 10, previousValue: null, change: null },
        { widgetId: 'w5', metric: 'users', value: 8, previousValue: null, change: null },
      ],
      charts: [
        {
          widgetId: 'w2',
          type: 'line_chart',
          granularity: 'day',
          series: ['sessions', 'users'].map((metric) => ({ metric, points })),
        },
        { widgetId: 'w3', type: 'line_chart', granularity: 'day', series: [{ metric: 'users', points }] },
      ],
      tables: [
        {
          widgetId: 'w4',
          dimension: 'campaign',
          columns: ['sessions'],
          rows: [{ dimensionValue: LONG_WORD.slice(0, 5_000), values: [1], previousValues: null }],
          totals: { values: [1], previousValues: null },
        },
      ],
    },
  },
  metricCatalog: {
    providers: [
      {
        id: provider,
        label: 'Google Analytics',
        metrics: [
          { id: 'sessions', unit: 'count' },
          { id: 'users', unit: 'count' },
        ],
      },
    ],
  },
};
