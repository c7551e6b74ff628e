// The searches-and-retrievals fixture read through every door: v1, /graphql, MCP (a real OAuth
// client), and the CSV and NDJSON exports, each asserted against the same hand-computed figures
// (counts, pooled rates, order and ties broken by text).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ingest } from '../../../src/ingest/service.js';
import { createKeyedWorkspace, json } from '../../support/app.js';
import { useListeningApp } from '../../support/listen.js';
import { personWithPassword, signIn } from '../../support/web.js';
import { connectMcp, TestOAuthProvider } from '../../support/mcp.js';
import { parseCsv } from '../../support/csv.js';
import { quietRun } from '../../support/scan-lines.js';
import {
  EXPECTED_OPPORTUNITIES,
  EXPECTED_PROMPT_OPPORTUNITIES_CHATGPT_EN,
  EXPECTED_SEARCH_QUERIES,
  EXPECTED_SEARCH_QUERIES_CHATGPT_EN,
  FIXTURE_RANGE,
  FIXTURE_SCANS,
} from './search-fixture.js';
import { createProject, CRM_PROJECT } from '../../support/projects.js';

const served = useListeningApp();
let key: string;
let workspaceId: string;
let projectId: string;
let promptIds: Record<string, string>;
let client: Client;

const v1 = async (path: string, accept = 'application/json') => {
  const response = await served.t.get(`/api/v1/ai-visibility/projects/${projectId}${path}`, key, {
    headers: { accept },
  });
  return {
    status: response.status,
    body: accept === 'application/json' ? await json(response) : await response.text(),
  };
};
const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
  const response = await served.t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return json(response);
};
const tool = async (name: string, args: Record<string, unknown>) =>
  ((await client.callTool({ name, arguments: args })) as { structuredContent: Record<string, any> }).structuredContent;
const withIds = <T extends { prompt: string }>(items: T[]) =>
  items.map((item) => ({ ...item, promptId: promptIds[item.prompt] }));

beforeAll(async () => {
  const db = served.t.database;
  const keyed = await createKeyedWorkspace(db);
  key = keyed.key.secret;
  workspaceId = keyed.workspace.id;
  projectId = (await createProject(db, keyed.workspace.id, CRM_PROJECT)).id;
  const summary = await ingest(
    db.pool,
    'scans',
    FIXTURE_SCANS.map(([date, model, locale, runs]) =>
      JSON.stringify({ project: projectId, date, model, locale, runs }),
    ).join('\n'),
  );
  expect(summary).toMatchObject({ accepted: FIXTURE_SCANS.length, rejected: 0 });
  promptIds = Object.fromEntries(
    (await db.prisma.aiPrompt.findMany({ where: { projectId } })).map((prompt) => [prompt.text, prompt.id]),
  );
  await personWithPassword(db, { email: keyed.ownerEmail });
  const admin = await signIn(served.t.app, keyed.ownerEmail);
  client = await connectMcp(
    served.baseUrl,
    new TestOAuthProvider({ cookie: admin.cookie, workspaceId: keyed.workspace.id }),
    '/mcp/x/all',
  );
}, 90_000);
afterAll(async () => {
  await client?.close();
});

describe('search queries', () => {
  it(
    'v1: per locale × query (trimmed, lower-cased), runs, prompts and the brand visibility pooled ' +
      'over those runs, by locale, runs descending, query',
    async () => {
      expect((await v1(`/search-queries?${FIXTURE_RANGE}`)).body).toEqual({
        data: EXPECTED_SEARCH_QUERIES,
        meta: { total: 4, truncated: false },
      });
      expect((await v1(`/search-queries?${FIXTURE_RANGE}&model=chatgpt&locale=en-US`)).body.data).toEqual(
        EXPECTED_SEARCH_QUERIES_CHATGPT_EN,
      );
      expect((await v1(`/search-queries?${FIXTURE_RANGE}&promptId=${promptIds['crm pricing']}`)).body.data).toEqual([
        { locale: 'de-DE', query: 'bestes crm', runs: 1, promptCount: 1, visibilityCount: 0, visibility: 0 },
        { locale: 'en-US', query: 'crm pricing', runs: 2, promptCount: 1, visibilityCount: 0, visibility: 0 },
        { locale: 'en-US', query: 'best crm 2026', runs: 1, promptCount: 1, visibilityCount: 0, visibility: 0 },
      ]);
      // The limit is per locale; meta counts every row before it.
      expect((await v1(`/search-queries?${FIXTURE_RANGE}&limit=1`)).body).toEqual({
        data: [EXPECTED_SEARCH_QUERIES[0], EXPECTED_SEARCH_QUERIES[1]],
        meta: { total: 4, truncated: true },
      });
      expect((await v1('/search-queries?dateFrom=2026-12-01&dateTo=2026-12-31')).body).toEqual({
        data: [],
        meta: { total: 0, truncated: false },
      });
    },
  );

  it('refuses a bad limit, range or prompt with 400 naming the parameter', async () => {
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['dateFrom=2026-11-02&dateTo=2026-11-01', 'dateFrom'],
      ['promptId=nope', 'promptId'],
    ]) {
      const { status, body } = await v1(`/search-queries?${query}`);
      expect([status, body.error.param], query).toEqual([400, param]);
    }
  });

  it('exports the same rows as CSV and NDJSON, every row without the limit', async () => {
    const ndjson = (await v1(`/search-queries?${FIXTURE_RANGE}&limit=1`, 'application/x-ndjson')).body as string;
    expect(
      ndjson
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(EXPECTED_SEARCH_QUERIES);
    const [header, ...rows] = parseCsv((await v1(`/search-queries?${FIXTURE_RANGE}`, 'text/csv')).body as string);
    expect(header).toEqual(['locale', 'query', 'runs', 'promptCount', 'visibilityCount', 'visibility']);
    expect(rows).toEqual(
      EXPECTED_SEARCH_QUERIES.map((row) => [
        row.locale,
        row.query,
        String(row.runs),
        String(row.promptCount),
        String(row.visibilityCount),
        String(row.visibility),
      ]),
    );
  });

  it("GraphQL and MCP (a prompt's metrics) give the same figures", async () => {
    const { data } = await graphql(
      'query($id: ProjectId!) { aiVisibilitySearchQueries(id: $id, dateFrom: "2026-11-01", dateTo: ' +
        '"2026-11-02") { data { locale query runs promptCount visibilityCount visibility } meta { ' +
        'total truncated } } }',
      { id: projectId },
    );
    expect(data.aiVisibilitySearchQueries).toEqual({
      data: EXPECTED_SEARCH_QUERIES,
      meta: { total: 4, truncated: false },
    });
    const viaMcp = await tool('get_prompt_metrics', {
      id: promptIds['crm pricing'],
      dateFrom: '2026-11-01',
      dateTo: '2026-11-02',
    });
    expect(viaMcp.node.searchQueries).toEqual(
      (await v1(`/search-queries?${FIXTURE_RANGE}&promptId=${promptIds['crm pricing']}`)).body.data,
    );
  });
});

describe('opportunities', () => {
  const expected = () => ({ ...EXPECTED_OPPORTUNITIES, prompts: withIds(EXPECTED_OPPORTUNITIES.prompts) });

  it(
    'v1: three lists per locale, each by score descending with ties by text, every figure beside ' + 'its score',
    async () => {
      const { status, body } = await v1(`/opportunities?${FIXTURE_RANGE}`);
      expect(status).toBe(200);
      expect(body).toEqual({
        data: { projectId, range: { from: '2026-11-01', to: '2026-11-02' }, ...expected() },
        meta: {},
      });
    },
  );

  it(
    "exports every item of the three lists as CSV and NDJSON, one row per item with its list's " +
      'kind, in the JSON order, whatever the limit',
    async () => {
      const { prompts, sources, pages } = expected();
      const items = [
        ...prompts.map((item) => ({ kind: 'prompts', ...item })),
        ...sources.map((item) => ({ kind: 'sources', ...item })),
        ...pages.map((item) => ({ kind: 'pages', ...item })),
      ];
      const ndjson = (await v1(`/opportunities?${FIXTURE_RANGE}&limit=1`, 'application/x-ndjson')).body as string;
      expect(
        ndjson
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual(items);
      const [header, ...rows] = parseCsv(
        (await v1(`/opportunities?${FIXTURE_RANGE}&kind=pages`, 'text/csv')).body as string,
      );
      expect(header).toEqual([
        'kind',
        'locale',
        'score',
        'promptId',
        'prompt',
        'runs',
        'brandVisibility',
        'bestCompetitor',
        'domain',
        'citations',
        'answers',
        'competitors',
        'competitor',
        'url',
        'retrievals',
        'retrievedNotCited',
        'citedRate',
      ]);
      expect(rows.map((row) => [row[0], row[1], row[2], row[13], row[14], row[15]])).toEqual(
        pages.map((page) => [
          'pages',
          page.locale,
          String(page.score),
          page.url,
          String(page.retrievals),
          String(page.retrievedNotCited),
        ]),
      );
      const prompt = parseCsv(
        (await v1(`/opportunities?${FIXTURE_RANGE}&kind=prompts`, 'text/csv')).body as string,
      )[1]!;
      expect(JSON.parse(prompt[7]!)).toEqual(prompts[0]!.bestCompetitor);
    },
  );

  it(
    'pools per locale over the filtered runs: model and locale filters change the figures, not the ' + 'rules',
    async () => {
      const { body } = await v1(`/opportunities?${FIXTURE_RANGE}&model=chatgpt&locale=en-US&kind=prompts`);
      expect(body.data).toMatchObject({
        prompts: withIds(EXPECTED_PROMPT_OPPORTUNITIES_CHATGPT_EN),
        sources: [],
        pages: [],
      });
    },
  );

  it('kind keeps one list; limit cuts each list per locale', async () => {
    expect((await v1(`/opportunities?${FIXTURE_RANGE}&kind=pages`)).body.data).toMatchObject({
      prompts: [],
      sources: [],
      pages: EXPECTED_OPPORTUNITIES.pages,
    });
    const { body } = await v1(`/opportunities?${FIXTURE_RANGE}&limit=1`);
    const { prompts, sources, pages } = expected();
    expect(body.data).toMatchObject({
      prompts: [prompts[0], prompts[2]],
      sources: [sources[0], sources[3]],
      pages: [pages[0], pages[1]],
    });
  });

  it(
    'breaks ties by code point past U+FFFF too: a prompt or competitor with an emoji comes after ' +
      'one in full-width letters',
    async () => {
      const db = served.t.database;
      const other = (
        await createProject(db, workspaceId, {
          name: 'Wide',
          competitors: ['\u{1F600} emoji', '\uFF21 wide'],
          models: ['chatgpt'],
          locales: ['en-US'],
        })
      ).id;
      const both = [
        { name: '\u{1F600} emoji', mentions: 1, position: 1 },
        { name: '\uFF21 wide', mentions: 1, position: 2 },
      ];
      const runs = ['\u{1F600} prompt', '\uFF21 prompt'].map((prompt) => ({
        prompt,
        answer: 'no brand',
        brandMentions: 0,
        totalMentions: 2,
        position: null,
        sentiment: null,
        competitors: both,
      }));
      expect(
        await ingest(
          db.pool,
          'scans',
          JSON.stringify({ project: other, date: '2026-11-01', model: 'chatgpt', locale: 'en-US', runs }),
        ),
      ).toMatchObject({ accepted: 1 });
      const response = await served.t.get(
        `/api/v1/ai-visibility/projects/${other}/opportunities?${FIXTURE_RANGE}&kind=prompts`,
        key,
      );
      expect(
        (await json(response)).data.prompts.map((item: { prompt: string; bestCompetitor: { name: string } }) => [
          item.prompt,
          item.bestCompetitor.name,
        ]),
      ).toEqual([
        ['\uFF21 prompt', '\uFF21 wide'],
        ['\u{1F600} prompt', '\uFF21 wide'],
      ]);
    },
  );

  it('refuses a bad kind or limit with 400 naming the parameter', async () => {
    for (const [query, param] of [
      ['kind=everything', 'kind'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
    ]) {
      const { status, body } = await v1(`/opportunities?${query}`);
      expect([status, body.error.param], query).toEqual([400, param]);
    }
  });

  it('GraphQL and MCP (get_citation_gaps) give the same lists', async () => {
    const fields =
      '{ projectId range { from to } prompts { locale promptId prompt runs brandVisibility ' +
      'bestCompetitor { name visibility } score } sources { locale domain citations answers ' +
      'competitors competitor score } pages { locale url domain retrievals retrievedNotCited citedRate score } }';
    const { data } = await graphql(
      `query($id: ProjectId!) { aiVisibilityOpportunities(id: $id, dateFrom: "2026-11-01", dateTo: ` +
        `"2026-11-02") { data ${fields} } }`,
      { id: projectId },
    );
    expect(data.aiVisibilityOpportunities.data).toEqual({
      projectId,
      range: { from: '2026-11-01', to: '2026-11-02' },
      ...expected(),
    });
    const viaMcp = await tool('get_citation_gaps', { id: projectId, dateFrom: '2026-11-01', dateTo: '2026-11-02' });
    expect(viaMcp.node.opportunities).toEqual({ range: { from: '2026-11-01', to: '2026-11-02' }, ...expected() });
  });
});

describe('answers and sources carry what was read', () => {
  it(
    'sources by URL count a page cited and read under one normalised URL (scheme and host ' +
      'lower-cased, fragment dropped)',
    async () => {
      const db = served.t.database;
      const other = (await createProject(db, workspaceId, { name: 'Pages', models: ['chatgpt'], locales: ['en-US'] }))
        .id;
      const run = quietRun({
        citations: [{ url: 'https://Acme.com' }, { url: 'HTTPS://ACME.com/x#top' }],
        retrieved: [{ url: 'https://acme.com' }, { url: 'https://acme.com/x' }, { url: 'https://acme.com/y' }],
      });
      expect(
        await ingest(
          db.pool,
          'scans',
          JSON.stringify({ project: other, date: '2026-11-01', model: 'chatgpt', locale: 'en-US', runs: [run] }),
        ),
      ).toMatchObject({ accepted: 1 });
      const response = await served.t.get(
        `/api/v1/ai-visibility/projects/${other}/sources?${FIXTURE_RANGE}&groupBy=url`,
        key,
      );
      expect(
        (await json(response)).data.rows.map((row: Record<string, unknown>) => [
          row.url,
          row.citations,
          row.retrievals,
          row.retrievedNotCited,
        ]),
      ).toEqual([
        ['https://acme.com/', 1, 1, 0],
        ['https://acme.com/x', 1, 1, 0],
        ['https://acme.com/y', 0, 1, 1],
      ]);
    },
  );

  it(
    'an answer has its searches in order and each page read marked cited or not, on v1, in its ' + 'export and on MCP',
    async () => {
      const { body } = await v1(
        `/answers?${FIXTURE_RANGE}&promptId=${promptIds['best crm']}&model=chatgpt&locale=en-US`,
      );
      const first = body.data.find((answer: { date: string }) => answer.date === '2026-11-01');
      expect(first).toMatchObject({
        searchQueries: ['Best CRM 2026', 'crm reviews'],
        retrieved: [
          { url: 'https://ACME.com/pricing#top', domain: 'acme.com', title: 'Pricing', cited: true },
          { url: 'https://acme.com/blog', domain: 'acme.com', title: null, cited: false },
          { url: 'https://www.g2.com/crm', domain: 'g2.com', title: null, cited: false },
        ],
      });
      const exported = (
        (
          await v1(
            `/answers?${FIXTURE_RANGE}&promptId=${promptIds['best crm']}&model=chatgpt&locale=en-US`,
            'application/x-ndjson',
          )
        ).body as string
      )
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(exported.map(({ searchQueries, retrieved }) => ({ searchQueries, retrieved }))).toEqual(
        body.data.map(({ searchQueries, retrieved }: Record<string, unknown>) => ({ searchQueries, retrieved })),
      );
      const viaMcp = await tool('get_answer', { id: projectId, answerId: first.id });
      expect(viaMcp.aiVisibilityAnswer.data).toMatchObject({
        searchQueries: first.searchQueries,
        retrieved: first.retrieved,
      });
    },
  );

  it(
    'sources count the runs that read each domain or URL and those that did not cite it; owned=true ' +
      "keeps the brand's own",
    async () => {
      const { body } = await v1(`/sources?${FIXTURE_RANGE}&locale=en-US`);
      expect(
        body.data.rows.map((row: Record<string, unknown>) => [
          row.domain,
          row.citations,
          row.retrievals,
          row.retrievedNotCited,
        ]),
      ).toEqual([
        ['reddit.com', 2, 1, 0],
        ['acme.com', 1, 3, 2],
        ['forbes.com', 1, 0, 0],
        ['globex.com', 1, 0, 0],
        ['g2.com', 0, 1, 1],
      ]);
      const owned = (await v1(`/sources?${FIXTURE_RANGE}&owned=true`)).body;
      expect(
        owned.data.rows.map((row: Record<string, unknown>) => [
          row.locale,
          row.domain,
          row.citations,
          row.retrievals,
          row.retrievedNotCited,
          row.owned,
        ]),
      ).toEqual([
        ['de-DE', 'acme.com', 0, 2, 2, true],
        ['en-US', 'acme.com', 1, 3, 2, true],
      ]);
      expect(owned.meta).toEqual({ total: 2, truncated: false });
      // Shares stay shares of all the locale's citations (acme.com: 1 of en-US's 5).
      const acme = body.data.rows.find((row: Record<string, unknown>) => row.domain === 'acme.com');
      expect(owned.data.rows[1]).toMatchObject({ citationShare: 0.2, answerShare: acme.answerShare });
      expect(acme.citationShare).toBe(0.2);
      const byUrl = (await v1(`/sources?${FIXTURE_RANGE}&owned=true&groupBy=url`)).body;
      expect(
        byUrl.data.rows.map((row: Record<string, unknown>) => [
          row.locale,
          row.url,
          row.citations,
          row.retrievals,
          row.retrievedNotCited,
        ]),
      ).toEqual([
        ['de-DE', 'https://acme.com/de', 0, 2, 2],
        ['en-US', 'https://acme.com/pricing', 1, 3, 2],
        ['en-US', 'https://acme.com/blog', 0, 1, 1],
      ]);
      const byPrompt = (await v1(`/sources?${FIXTURE_RANGE}&locale=en-US&owned=true&promptId=${promptIds['best crm']}`))
        .body;
      expect(
        byPrompt.data.rows.map((row: Record<string, unknown>) => [
          row.domain,
          row.citations,
          row.retrievals,
          row.retrievedNotCited,
        ]),
      ).toEqual([['acme.com', 1, 2, 1]]);
      // Its two runs read acme.com/pricing (the first as ACME.com/pricing#top, and cited it); the first also
      // read the blog.
      const byPromptAndUrl = (
        await v1(`/sources?${FIXTURE_RANGE}&locale=en-US&owned=true&groupBy=url&promptId=${promptIds['best crm']}`)
      ).body;
      expect(
        byPromptAndUrl.data.rows.map((row: Record<string, unknown>) => [
          row.url,
          row.citations,
          row.retrievals,
          row.retrievedNotCited,
        ]),
      ).toEqual([
        ['https://acme.com/pricing', 1, 2, 1],
        ['https://acme.com/blog', 0, 1, 1],
      ]);
      const viaMcp = await tool('get_cited_urls', {
        id: projectId,
        dateFrom: '2026-11-01',
        dateTo: '2026-11-02',
        owned: true,
      });
      expect(viaMcp.aiVisibilitySources.data.rows).toEqual(byUrl.data.rows);
      const [header, ...rows] = parseCsv((await v1(`/sources?${FIXTURE_RANGE}&owned=true`, 'text/csv')).body as string);
      expect(
        rows.map((row) => [row[1], row[header!.indexOf('retrievals')], row[header!.indexOf('retrievedNotCited')]]),
      ).toEqual([
        ['acme.com', '2', '2'],
        ['acme.com', '3', '2'],
      ]);
    },
  );
});
