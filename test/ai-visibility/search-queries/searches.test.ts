// Searches and pages read, through HTTP on real PostgreSQL: what ingestion accepts and refuses
// (each refusal naming its line and field), re-sends that replace them, and the digest that
// makes an identical re-send change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';
import { FIXTURE_SCANS, runOf } from './search-fixture.js';
import { createProject } from '../../support/projects.js';

const TOKEN = 's'.repeat(40);
let t: TestApp;
let projectId: string;

const line = (date: string, model: string, locale: string, runs: object[]) => ({
  project: projectId,
  date,
  model,
  locale,
  runs,
});
const ingest = async (lines: object[]) => {
  const response = await t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines.map((entry) => JSON.stringify(entry)).join('\n'),
    }),
  );
  return { status: response.status, body: await json(response) };
};
const storedOf = async (date: string) =>
  (
    await t.database.pool.query(
      `SELECT p.text, a.search_queries AS "searchQueries", a.retrieved,
       (SELECT k.members FROM ai_string_sets k WHERE k.project_id = a.project_id AND k.id = a.query_set) AS queries,
       (SELECT array_agg((r->>'url') || ' ' || (r->>'cited') ORDER BY n)
         FROM jsonb_array_elements(a.pages_read) WITH ORDINALITY AS e(r, n)) AS pages
     FROM ai_answers a JOIN ai_prompts p ON p.id = a.prompt_id WHERE a.project_id = $1 AND a.date = $2
     AND a.locale = 'en-US' AND a.model = 'chatgpt' ORDER BY p.text`,
      [projectId, date],
    )
  ).rows;

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const { workspace } = await createKeyedWorkspace(t.database);
  projectId = (
    await createProject(t.database, workspace.id, {
      name: 'CRM',
      competitors: ['Globex', 'Initech'],
      models: ['chatgpt', 'gemini'],
      locales: ['en-US', 'de-DE'],
      domains: ['acme.com'],
    })
  ).id;
  const first = await ingest(FIXTURE_SCANS.map(([date, model, locale, runs]) => line(date, model, locale, runs)));
  expect(first).toMatchObject({ status: 200, body: { data: { accepted: FIXTURE_SCANS.length, rejected: 0 } } });
});
afterAll(() => t.close());

describe('ingesting searches and pages read', () => {
  it(
    "stores both in the engine's order on the answer, queries once per run (trimmed, lower-cased) " +
      'and pages under their normalised URL, cited or not',
    async () => {
      const [best, startups, pricing] = await storedOf('2026-11-01');
      expect(best).toEqual({
        text: 'best crm',
        searchQueries: ['Best CRM 2026', 'crm reviews'],
        retrieved: [
          { url: 'https://ACME.com/pricing#top', domain: 'acme.com', title: 'Pricing', cited: true },
          { url: 'https://acme.com/blog', domain: 'acme.com', title: null, cited: false },
          { url: 'https://www.g2.com/crm', domain: 'g2.com', title: null, cited: false },
        ],
        queries: ['best crm 2026', 'crm reviews'],
        pages: ['https://acme.com/pricing true', 'https://acme.com/blog false', 'https://www.g2.com/crm false'],
      });
      expect(startups).toMatchObject({
        text: 'crm for startups',
        retrieved: [],
        queries: ['crm reviews'],
        pages: null,
      });
      expect(pricing).toMatchObject({
        text: 'crm pricing',
        queries: ['best crm 2026', 'crm pricing'],
        pages: ['https://acme.com/pricing false', 'https://www.reddit.com/r/crm true'],
      });
    },
  );

  it('keeps per scan and domain the runs that read it and those that read it without citing it', async () => {
    const totals = await t.database.pool.query(
      'SELECT domain, citations, retrievals, retrieved_not_cited FROM ai_source_totals WHERE ' +
        "project_id = $1 AND date = '2026-11-01' AND model = 'chatgpt' AND locale = 'en-US' ORDER BY domain",
      [projectId],
    );
    expect(totals.rows).toEqual([
      { domain: 'acme.com', citations: 1, retrievals: 2, retrieved_not_cited: 1 },
      { domain: 'forbes.com', citations: 1, retrievals: 0, retrieved_not_cited: 0 },
      { domain: 'g2.com', citations: 0, retrievals: 1, retrieved_not_cited: 1 },
      { domain: 'globex.com', citations: 1, retrievals: 0, retrieved_not_cited: 0 },
      { domain: 'reddit.com', citations: 1, retrievals: 1, retrieved_not_cited: 0 },
    ]);
  });

  it(
    'refuses searches and pages that break the limits, naming the line and the field, and writes ' + 'nothing',
    async () => {
      const count = async () =>
        (
          await t.database.pool.query(
            'SELECT (SELECT count(*) FROM ai_string_sets) + (SELECT count(*) FROM ai_answers) + ' +
              '(SELECT count(*) FROM ai_page_totals) AS n',
          )
        ).rows[0].n;
      const before = await count();
      const cases: [object, string][] = [
        [
          runOf('q', false, { searchQueries: Array.from({ length: 51 }, (_, i) => `q${i}`) }),
          'runs.0.searchQueries: Too big: expected array to have <=50 items',
        ],
        [
          runOf('q', false, { searchQueries: ['x'.repeat(501)] }),
          'runs.0.searchQueries.0: Too big: expected string to have <=500 characters',
        ],
        [runOf('q', false, { searchQueries: ['   '] }), 'runs.0.searchQueries.0: must not be blank'],
        [
          runOf('q', false, { searchQueries: ['a\u0000b'] }),
          'runs[0].searchQueries[0]: contains a NUL character (U+0000)',
        ],
        [
          runOf('q', false, { searchQueries: ['\ud800'] }),
          'runs[0].searchQueries[0]: is not valid Unicode (a lone surrogate)',
        ],
        [
          runOf('q', false, { retrieved: Array.from({ length: 101 }, (_, i) => ({ url: `https://e${i}.com/` })) }),
          'runs.0.retrieved: Too big: expected array to have <=100 items',
        ],
        [
          runOf('q', false, { retrieved: [{ url: 'ftp://files.example.com/x' }] }),
          'runs.0.retrieved.0.url: must be an http(s) URL',
        ],
        // 1 000 Chinese characters (varied, so PostgreSQL cannot compress them) are 9 000 once percent-encoded.
        [
          runOf('q', false, {
            retrieved: [
              {
                url: `https://e.com/${Array.from({ length: 1000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join('')}`,
              },
            ],
          }),
          'runs.0.retrieved.0.url: must be at most 2048 characters once normalised (non-ASCII percent-encoded: 9014)',
        ],
        [
          runOf('q', false, { retrieved: [{ url: 'https://e.com/', title: 'x'.repeat(501) }] }),
          'runs.0.retrieved.0.title',
        ],
        [runOf('q', false, { retrieved: [{ url: 'https://e.com/', extra: 1 } as never] }), 'Unrecognized key: "extra"'],
      ];
      for (const [run, message] of cases) {
        const { status, body } = await ingest([
          line('2026-11-05', 'chatgpt', 'en-US', [runOf('fine', false)]),
          line('2026-11-06', 'chatgpt', 'en-US', [run]),
        ]);
        expect(status, message).toBe(400);
        expect(body.error.lines, message).toEqual([{ line: 2, message: expect.stringContaining(message) }]);
      }
      expect(await count()).toBe(before);
    },
  );

  it('refuses a URL over 2 048 characters for its length alone, without parsing it', async () => {
    const long = `https://localhost/${'\u20ac'.repeat(3000)}`;
    const { status, body } = await ingest([
      line('2026-11-06', 'chatgpt', 'en-US', [
        runOf('q', false, { retrieved: [{ url: long }], citations: [{ url: long }] }),
      ]),
    ]);
    expect(status).toBe(400);
    expect(body.error.lines).toEqual([
      {
        line: 1,
        message:
          'runs.0.citations.0.url: Too big: expected string to have <=2048 characters; ' +
          'runs.0.retrieved.0.url: Too big: expected string to have <=2048 characters',
      },
    ]);
  });

  it(
    'stores every run of a file larger than one statement (written a group at a time while the next ' +
      'is built), each with its searches and pages',
    async () => {
      const dates = ['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-04', '2026-10-05', '2026-10-06'];
      const runs = (day: number) =>
        Array.from({ length: 1000 }, (_, i) =>
          runOf(`bulk ${i}`, i % 2 === 0, {
            searchQueries: [`query ${day} ${i}`],
            retrieved: [{ url: `https://site${i % 7}.com/${day}` }],
          }),
        );
      const written = await ingest(dates.map((date, day) => line(date, 'chatgpt', 'en-US', runs(day))));
      expect(written).toMatchObject({ status: 200, body: { data: { accepted: 6, rejected: 0 } } });
      const counts = await t.database.pool.query(
        `SELECT count(*)::int AS answers, count(DISTINCT a.date)::int AS dates,
         sum((SELECT cardinality(k.members) FROM ai_string_sets k WHERE k.project_id = a.project_id
           AND k.id = a.query_set))::int AS queries,
         sum(jsonb_array_length(a.pages_read))::int AS pages,
         (SELECT sum(p.retrievals)::int FROM ai_page_totals p WHERE p.project_id = $1
           AND p.date = ANY($2::date[])) AS "pageRetrievals",
         (SELECT sum(t.retrievals)::int FROM ai_source_totals t WHERE t.project_id = $1
           AND t.date = ANY($2::date[])) AS retrievals
       FROM ai_answers a WHERE a.project_id = $1 AND a.date = ANY($2::date[])`,
        [projectId, dates],
      );
      expect(counts.rows[0]).toEqual({
        answers: 6000,
        dates: 6,
        queries: 6000,
        pages: 6000,
        pageRetrievals: 6000,
        retrievals: 6000,
      });
      await t.database.pool.query('DELETE FROM scans WHERE project_id = $1 AND date = ANY($2::date[])', [
        projectId,
        dates,
      ]);
    },
  );

  it(
    'accepts the limits exactly, 50 queries of 500 three-byte characters in one set, under the id ' +
      'migration 0014 computes in SQL',
    async () => {
      const full = runOf('full', false, {
        searchQueries: Array.from({ length: 50 }, (_, i) => `${'€'.repeat(497)}${String(i).padStart(3, '0')}`),
        retrieved: Array.from({ length: 100 }, (_, i) => ({ url: `https://e${i}.com/` })),
      });
      expect((await ingest([line('2026-11-07', 'chatgpt', 'en-US', [full])])).body.data).toMatchObject({ accepted: 1 });
      const stored = await t.database.pool.query(
        `SELECT cardinality(k.members) AS queries, jsonb_array_length(a.pages_read) AS pages, k.id = (
         SELECT encode(substring(sha256(convert_to(string_agg(octet_length(q)::text || ':' || q, ''
         ORDER BY q COLLATE "C"), 'UTF8')) FROM 1 FOR 16), 'hex')::uuid
         FROM unnest(k.members) AS q) AS "sameId"
       FROM ai_answers a JOIN ai_string_sets k ON k.project_id = a.project_id AND k.id = a.query_set
       WHERE a.project_id = $1 AND a.date = '2026-11-07'`,
        [projectId],
      );
      expect(stored.rows).toEqual([{ queries: 50, pages: 100, sameId: true }]);
      await t.database.pool.query("DELETE FROM scans WHERE project_id = $1 AND date = '2026-11-07'", [projectId]);
    },
  );

  it(
    "stores each run's named competitors as a set under the id migration 0014 computes from the " +
      "competitors' JSON, none for a run naming none",
    async () => {
      const sets = await t.database.pool.query(
        `SELECT p.text, k.members, a.competitor_set = (
         SELECT encode(substring(sha256(convert_to(string_agg(octet_length(n)::text || ':' || n, ''
         ORDER BY n COLLATE "C"), 'UTF8')) FROM 1 FOR 16), 'hex')::uuid
         FROM (SELECT DISTINCT e->>'name' AS n FROM jsonb_array_elements(a.competitors) AS e
         WHERE (e->>'mentions')::int > 0) named) AS "sameId"
       FROM ai_answers a JOIN ai_prompts p ON p.id = a.prompt_id LEFT
       JOIN ai_string_sets k ON k.project_id = a.project_id AND k.id = a.competitor_set
       WHERE a.project_id = $1 AND a.date = '2026-11-01' AND a.model = 'chatgpt' AND a.locale = 'en-US'
       ORDER BY p.text`,
        [projectId],
      );
      expect(sets.rows).toEqual([
        { text: 'best crm', members: ['Globex'], sameId: true },
        { text: 'crm for startups', members: null, sameId: null },
        { text: 'crm pricing', members: ['Globex', 'Initech'], sameId: true },
      ]);
    },
  );

  it(
    'changes nothing on an identical re-send (runs shuffled); a re-send with other searches or ' +
      'pages replaces them, and their order counts',
    async () => {
      const runs = FIXTURE_SCANS[0]![3];
      const again = await ingest([line('2026-11-01', 'chatgpt', 'en-US', [runs[2]!, runs[0]!, runs[1]!])]);
      expect(again.body.data).toMatchObject({ accepted: 0, replaced: 0, unchanged: 1 });

      await ingest([
        line('2026-11-03', 'chatgpt', 'en-US', [
          runOf('best crm', true, { searchQueries: ['a', 'b'], retrieved: [{ url: 'https://acme.com/x' }] }),
        ]),
      ]);
      const reordered = await ingest([
        line('2026-11-03', 'chatgpt', 'en-US', [
          runOf('best crm', true, { searchQueries: ['b', 'a'], retrieved: [{ url: 'https://acme.com/x' }] }),
        ]),
      ]);
      expect(reordered.body.data).toMatchObject({ replaced: 1 });
      const replaced = await ingest([
        line('2026-11-03', 'chatgpt', 'en-US', [runOf('best crm', true, { searchQueries: ['c'] })]),
      ]);
      expect(replaced.body.data).toMatchObject({ replaced: 1 });
      expect(await storedOf('2026-11-03')).toEqual([
        { text: 'best crm', searchQueries: ['c'], retrieved: [], queries: ['c'], pages: null },
      ]);
      const totals = await t.database.pool.query(
        'SELECT (SELECT count(*)::int FROM ai_source_totals WHERE project_id = $1 AND date = ' +
          "'2026-11-03') AS domains, (SELECT count(*)::int FROM ai_page_totals WHERE project_id = $1 " +
          "AND date = '2026-11-03') AS pages",
        [projectId],
      );
      expect(totals.rows[0]).toEqual({ domains: 0, pages: 0 });
      await t.database.pool.query("DELETE FROM scans WHERE project_id = $1 AND date = '2026-11-03'", [projectId]);
    },
  );
});
