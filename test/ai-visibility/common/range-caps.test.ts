// The work one v1 request can ask for is bounded: a range wider than its read's rule is refused
// with 400 invalid_parameter naming dateFrom (JSON and exports alike), the widest accepted range
// is answered, the OpenAPI document states each cap, and a project's data cannot come to span
// more locales or competitors than the GraphQL cost counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateProject } from '../../../src/ai-visibility/index.js';
import { addDays } from '../../../src/dates/civil-date.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';
import { createProject } from '../../support/projects.js';

const TOKEN = 'r'.repeat(40);
const today = new Date().toISOString().slice(0, 10);
let t: TestApp;
let key: string;
let workspaceId: string;
let ownerEmail: string;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const keyed = await createKeyedWorkspace(t.database);
  ({ ownerEmail } = keyed);
  key = keyed.key.secret;
  workspaceId = keyed.workspace.id;
  projectId = (
    await createProject(t.database, workspaceId, {
      name: 'Ranges',
      competitors: ['Globex'],
      models: ['chatgpt'],
      locales: ['en-US', 'de-DE'],
    })
  ).id;
  const run = {
    prompt: 'best crm',
    answer: 'Acme.',
    brandMentions: 1,
    totalMentions: 2,
    position: 1,
    sentiment: 'neutral',
    competitors: [{ name: 'Globex', mentions: 1, position: 2 }],
    searchQueries: ['best crm'],
  };
  const lines = ['en-US', 'de-DE'].map((locale) =>
    JSON.stringify({ project: projectId, date: today, model: 'chatgpt', locale, runs: [run] }),
  );
  const ingested = await t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines.join('\n'),
    }),
  );
  expect(ingested.status).toBe(200);
});
afterAll(() => t.close());

const RUN_READS = ['answers', 'sources', 'search-queries', 'opportunities'];
const CAPS: [string, number, RegExp][] = [
  ...RUN_READS.map((read): [string, number, RegExp] => [read, 400, /this read spans at most 400/]),
  ['prompts', 60, /this read spans at most 60/],
  ['answers?domain=reddit.com', 90, /this read spans at most 90/],
];

describe('v1 date ranges', () => {
  it.each(CAPS)(
    '%s: %i days answered, one more refused with invalid_parameter naming dateFrom and the cap',
    async (read, days, message) => {
      const separator = read.includes('?') ? '&' : '?';
      const path = (from: string, to: string) =>
        `/api/v1/ai-visibility/projects/${projectId}/${read}${separator}dateFrom=${from}&dateTo=${to}`;
      expect((await t.get(path(addDays(today, -(days - 1)), today), key)).status).toBe(200);
      for (const [from, to] of [
        [addDays(today, -days), today],
        ['0001-01-01', '9999-12-31'],
      ] as const) {
        const response = await t.get(path(from, to), key);
        expect(response.status).toBe(400);
        const { error } = await json(response);
        expect(error).toMatchObject({ code: 'invalid_parameter', param: 'dateFrom' });
        expect(error.message).toMatch(message);
      }
    },
  );

  it('metrics (scans): three years answered, one day more refused', async () => {
    const path = (from: string) =>
      `/api/v1/ai-visibility/projects/${projectId}/metrics?dateFrom=${from}&dateTo=${today}`;
    expect((await t.get(path(addDays(today, -1097)), key)).status).toBe(200);
    const response = await t.get(path(addDays(today, -1098)), key);
    expect(response.status).toBe(400);
    expect((await json(response)).error).toMatchObject({
      code: 'invalid_parameter',
      param: 'dateFrom',
      message: expect.stringMatching(/at most 1098/),
    });
  });

  it('refuses the same range of an export before streaming', async () => {
    const response = await t.app.fetch(
      new Request(
        `http://test.local/api/v1/ai-visibility/projects/${projectId}/search-queries?dateFrom=0001-01-01&dateTo=9999-12-31`,
        { headers: { authorization: `Bearer ${key}`, accept: 'text/csv' } },
      ),
    );
    expect(response.status).toBe(400);
    expect((await json(response)).error).toMatchObject({ code: 'invalid_parameter', param: 'dateFrom' });
  });

  it('states each cap in the OpenAPI description of dateFrom', async () => {
    const document = await json(await t.get('/api/v1/openapi.json', key));
    const parameterOf = (path: string, name = 'dateFrom') =>
      document.paths[`/ai-visibility/projects/{id}/${path}`].get.parameters.find(
        (parameter: { name: string }) => parameter.name === name,
      ).description;
    for (const read of RUN_READS) expect(parameterOf(read)).toMatch(/spans at most 400 days/);
    expect(parameterOf('prompts')).toMatch(/spans at most 60 days/);
    expect(parameterOf('answers', 'domain')).toMatch(/With domain, dateFrom to dateTo spans at most 90 days/);
    expect(parameterOf('metrics')).toMatch(/spans at most 1098 days/);
  });
});

describe('the period comparison (GraphQL)', () => {
  const compare = async (currentFrom: string, currentTo: string, previousFrom: string, previousTo: string) => {
    const query =
      'query($c1: Date!, $c2: Date!, $p1: Date!, $p2: Date!) { aiVisibilityProjects { data { periodComparison(' +
      'currentFrom: $c1, currentTo: $c2, previousFrom: $p1, previousTo: $p2) { locale } } } }';
    const response = await t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          query,
          variables: { c1: currentFrom, c2: currentTo, p1: previousFrom, p2: previousTo },
        }),
      }),
    );
    return json(response);
  };
  const refusal = async (...range: [string, string, string, string]) => (await compare(...range)).errors?.[0];

  it('answers two periods of three years each', async () => {
    const answer = await compare(addDays(today, -1097), today, addDays(today, -2195), addDays(today, -1098));
    expect(answer.errors).toBeUndefined();
    expect(answer.data.aiVisibilityProjects.data[0].periodComparison.length).toBeGreaterThan(0);
  });

  it('refuses a period longer than the scans read or reversed, naming its own first day', async () => {
    const inRange = [addDays(today, -30), today] as const;
    expect(await refusal(addDays(today, -1098), today, ...inRange)).toMatchObject({
      extensions: { code: 'invalid_parameter', param: 'currentFrom' },
      message: expect.stringMatching(/^currentFrom \(.*\) to currentTo \(.*\) spans 1099 days; .* at most 1098/),
    });
    expect(await refusal(today, addDays(today, -1), ...inRange)).toMatchObject({
      extensions: { code: 'invalid_parameter', param: 'currentFrom' },
      message: expect.stringMatching(/^currentFrom \(.*\) must not be after currentTo/),
    });
    expect(await refusal(...inRange, '0001-01-01', '9999-12-31')).toMatchObject({
      extensions: { code: 'invalid_parameter', param: 'previousFrom' },
      message: expect.stringMatching(/^previousFrom \(0001-01-01\) to previousTo \(9999-12-31\) spans/),
    });
  });
});

describe("a project's data span", () => {
  it('refuses locales that would make its scans span more than 50, and accepts a swap within it', async () => {
    const actor = { email: ownerEmail };
    // Well-formed tags (a language and a three-digit region), stored as written.
    const others = Array.from({ length: 49 }, (_, index) => `xx-${String(index).padStart(3, '0')}`);
    // The scans hold en-US and de-DE: 49 new ones and en-US reach 51 with de-DE's data.
    await expect(
      updateProject(t.database.prisma, { workspaceId, projectId, fields: { locales: ['en-US', ...others] }, actor }),
    ).rejects.toThrow(/spans at most 50 locales: its scans hold 2, with these 51/);
    await expect(
      updateProject(t.database.prisma, {
        workspaceId,
        projectId,
        fields: { locales: ['en-US', ...others.slice(1)] },
        actor,
      }),
    ).resolves.toMatchObject({ locales: ['en-US', ...others.slice(1)] });
    const competitors = Array.from({ length: 50 }, (_, index) => `Rival ${index}`);
    await expect(
      updateProject(t.database.prisma, { workspaceId, projectId, fields: { competitors }, actor }),
    ).rejects.toThrow(/spans at most 50 competitors: its scans hold 1, with these 51/);
  });
});
