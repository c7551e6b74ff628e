// Prompts, answers and sources through HTTP on real PostgreSQL: scans ingested with their runs,
// counters derived and checked, re-sends idempotent, and the four v1 reads with their filters,
// keyset pages, pooled shares and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/db/ids.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';
import { createProject, CRM_PROJECT } from '../../support/projects.js';

const TOKEN = 'r'.repeat(40);
let t: TestApp;
let key: string;
let workspaceId: string;
let projectId: string;
let otherProjectId: string;

interface RunInput {
  prompt: string;
  answer?: string;
  brandMentions?: number;
  totalMentions?: number;
  position?: number | null;
  sentiment?: 'positive' | 'neutral' | 'negative' | null;
  competitors?: { name: string; mentions: number; position: number | null }[];
  citations?: { url: string; title?: string }[];
  topic?: string;
  tags?: string[];
}

const run = (prompt: string, fields: Partial<RunInput> = {}): RunInput => ({
  prompt,
  answer: `An answer to ${prompt}`,
  brandMentions: 0,
  totalMentions: 0,
  position: null,
  sentiment: null,
  ...fields,
});

const scanLine = (
  date: string,
  runs: RunInput[],
  extra: Record<string, unknown> = {},
  locale = 'en-US',
  model = 'chatgpt',
) => ({ project: projectId, date, model, locale, runs, ...extra });

const ingest = async (lines: object[], query = '') => {
  const response = await t.app.fetch(
    new Request(`http://test.local/internal/ingest/scans${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines.map((line) => JSON.stringify(line)).join('\n'),
    }),
  );
  return { status: response.status, body: await json(response) };
};

const v1 = async (path: string) => {
  const response = await t.get(`/api/v1/ai-visibility/projects/${projectId}${path}`, key);
  return { status: response.status, body: await json(response) };
};

// Day one, en-US: three prompts. "best crm" mentions the brand first with two citations of one
// registrable domain, "crm pricing" names only Globex, "crm reviews" cites the brand's blog.
const DAY_ONE = [
  run('best crm', {
    topic: 'recommendations',
    tags: ['funnel', 'top'],
    answer: 'Acme, then Globex. "Acme" is great, really, great.\nTry it.',
    brandMentions: 2,
    totalMentions: 3,
    position: 1,
    sentiment: 'positive',
    competitors: [{ name: 'Globex', mentions: 1, position: 2 }],
    citations: [
      { url: 'https://blog.example.co.uk/post', title: 'Example, "quoted"' },
      { url: 'https://www.example.co.uk/other' },
      { url: 'https://globex.com/pricing' },
    ],
  }),
  run('crm pricing', {
    topic: 'pricing',
    tags: ['funnel'],
    totalMentions: 1,
    competitors: [{ name: 'Globex', mentions: 1, position: 1 }],
    citations: [{ url: 'https://www.reddit.com/r/crm' }],
  }),
  run('crm reviews', {
    brandMentions: 1,
    totalMentions: 1,
    position: null,
    sentiment: 'negative',
    citations: [{ url: 'https://acme.com/blog' }, { url: 'https://www.reddit.com/r/sales' }],
  }),
];

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  workspaceId = keyed.workspace.id;
  const project = (extra: object = {}) => createProject(t.database, workspaceId, { ...CRM_PROJECT, ...extra });
  projectId = (await project()).id;
  otherProjectId = (await project({ name: 'Other' })).id;
  const first = await ingest([
    scanLine('2026-10-01', DAY_ONE),
    scanLine('2026-10-02', [
      run('best crm', {
        brandMentions: 1,
        totalMentions: 1,
        position: 1,
        sentiment: 'neutral',
        citations: [{ url: 'https://acme.com/' }],
      }),
      run('crm pricing'),
    ]),
    scanLine(
      '2026-10-01',
      [run('best crm', { citations: [{ url: 'https://de.wikipedia.org/wiki/CRM' }] })],
      {},
      'de-DE',
    ),
  ]);
  expect(first).toMatchObject({ status: 200, body: { data: { accepted: 3, rejected: 0 } } });
});
afterAll(() => t.close());

describe('ingesting runs', () => {
  it('derives the scan counters and competitor counters from the runs, which metrics then pool', async () => {
    const { body } = await v1('/metrics?dateFrom=2026-10-01&dateTo=2026-10-01');
    const row = body.data.rows.find((r: { locale: string }) => r.locale === 'en-US');
    expect(row).toMatchObject({
      totalRuns: 3,
      visibilityCount: 2,
      mentionCount: 3,
      totalMentionCount: 5,
      positionedCount: 1,
      positionSum: 1,
      positiveCount: 1,
      neutralCount: 0,
      negativeCount: 1,
    });
    expect(row.competitors).toEqual([
      expect.objectContaining({
        name: 'Globex',
        visibilityCount: 2,
        mentionCount: 2,
        positionedCount: 2,
        positionSum: 3,
      }),
    ]);
  });

  it(
    "creates prompts on first sight with the line's topic and tags, and puts run and citation " +
      'counts on scan.completed',
    async () => {
      const prompts = await t.database.prisma.aiPrompt.findMany({ where: { projectId }, orderBy: { text: 'asc' } });
      expect(prompts.map((p) => [p.text, p.topic, p.tags])).toEqual([
        ['best crm', 'recommendations', ['funnel', 'top']],
        ['crm pricing', 'pricing', ['funnel']],
        ['crm reviews', null, []],
      ]);
      const events = await t.database.pool.query(
        "SELECT payload FROM webhook_events WHERE workspace_id = $1 AND type = 'scan.completed' ORDER " +
          "BY payload->>'date', payload->>'locale'",
        [workspaceId],
      );
      expect(
        events.rows.map((row) => [
          row.payload.date,
          row.payload.locale,
          row.payload.runCount,
          row.payload.citationCount,
        ]),
      ).toEqual([
        ['2026-10-01', 'de-DE', 1, 1],
        ['2026-10-01', 'en-US', 3, 6],
        ['2026-10-02', 'en-US', 2, 1],
      ]);
    },
  );

  it('refuses counters beside runs that disagree, naming the difference, and writes nothing', async () => {
    const before = await t.database.pool.query('SELECT count(*)::int AS n FROM ai_answers');
    const { status, body } = await ingest([
      scanLine('2026-10-05', [run('x', { brandMentions: 1, totalMentions: 1 })], {
        totalRuns: 2,
        visibilityCount: 1,
        mentionCount: 1,
        totalMentionCount: 1,
        positionedCount: 0,
        positionSum: 0,
        positiveCount: 0,
        neutralCount: 0,
        negativeCount: 0,
      }),
    ]);
    expect(status).toBe(400);
    expect(body.error.lines[0].message).toContain('totalRuns: sent 2, the runs give 1');
    expect((await t.database.pool.query('SELECT count(*)::int AS n FROM ai_answers')).rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses runs that break the limits or rules, each named', async () => {
    const cases: [object, string][] = [
      [
        scanLine(
          '2026-10-05',
          Array.from({ length: 1001 }, (_, i) => run(`p${i}`)),
        ),
        'runs',
      ],
      [scanLine('2026-10-05', [run('long', { answer: 'x'.repeat(100_001) })]), 'answer'],
      [
        scanLine('2026-10-05', [
          run('many', { citations: Array.from({ length: 101 }, (_, i) => ({ url: `https://e${i}.com` })) }),
        ]),
        'citations',
      ],
      [scanLine('2026-10-05', [run('ftp', { citations: [{ url: 'ftp://files.example.com/x' }] })]), 'http(s) URL'],
      [scanLine('2026-10-05', [run('pos', { position: 1 })]), 'position must be null when brandMentions is 0'],
      [scanLine('2026-10-05', [run('dup'), run('dup')]), 'one run per prompt'],
      [
        scanLine('2026-10-05', [
          run('who', { totalMentions: 1, competitors: [{ name: 'Hooli', mentions: 1, position: null }] }),
        ]),
        'competitor Hooli is not tracked',
      ],
      [{ project: projectId, date: '2026-10-05', model: 'chatgpt', locale: 'en-US' }, 'required (or send runs)'],
    ];
    for (const [line, message] of cases) {
      const { status, body } = await ingest([line]);
      expect(status, message).toBe(400);
      expect(body.error.lines[0].message).toContain(message);
    }
  });

  it(
    'changes nothing and emits nothing on an identical re-send with the runs shuffled; replaces the ' +
      'runs when they change',
    async () => {
      const answerIds = async () =>
        (
          await t.database.pool.query(
            "SELECT id FROM ai_answers WHERE project_id = $1 AND date = '2026-10-01' AND locale = 'en-US' ORDER BY id",
            [projectId],
          )
        ).rows.map((row) => row.id);
      const events = async () =>
        (
          await t.database.pool.query('SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1', [
            workspaceId,
          ])
        ).rows[0].n;
      const [idsBefore, eventsBefore] = [await answerIds(), await events()];
      const again = await ingest([scanLine('2026-10-01', [DAY_ONE[2]!, DAY_ONE[0]!, DAY_ONE[1]!])]);
      expect(again.body.data).toMatchObject({ accepted: 0, replaced: 0, unchanged: 1 });
      expect(await answerIds()).toEqual(idsBefore);
      expect(await events()).toBe(eventsBefore);

      const changed = await ingest([scanLine('2026-10-03', [run('best crm'), run('crm pricing')])]);
      expect(changed.body.data).toMatchObject({ accepted: 1 });
      const replaced = await ingest([
        scanLine('2026-10-03', [run('best crm', { citations: [{ url: 'https://globex.com/' }] })]),
      ]);
      expect(replaced.body.data).toMatchObject({ replaced: 1 });
      const rows = await t.database.pool.query(
        'SELECT p.text, a.citations FROM ai_answers a JOIN ai_prompts p ON p.id = a.prompt_id WHERE ' +
          "a.project_id = $1 AND a.date = '2026-10-03'",
        [projectId],
      );
      expect(rows.rows).toEqual([
        {
          text: 'best crm',
          citations: [{ position: 1, url: 'https://globex.com/', domain: 'globex.com', title: null }],
        },
      ]);
      const totals = await t.database.pool.query(
        "SELECT domain, citations, answers_citing FROM ai_source_totals WHERE project_id = $1 AND date = '2026-10-03'",
        [projectId],
      );
      expect(totals.rows).toEqual([{ domain: 'globex.com', citations: 1, answers_citing: 1 }]);
      // Back to how it was for the reads below.
      await t.database.pool.query("DELETE FROM scans WHERE project_id = $1 AND date = '2026-10-03'", [projectId]);
    },
  );
});

describe('GET …/prompts', () => {
  it('lists prompts oldest first with totals per locale pooled over their runs in range', async () => {
    const { status, body } = await v1('/prompts?dateFrom=2026-10-01&dateTo=2026-10-02');
    expect(status).toBe(200);
    expect(body.data.map((p: { text: string }) => p.text)).toEqual(['best crm', 'crm pricing', 'crm reviews']);
    expect(body.meta).toEqual({ total: 3, truncated: false, nextCursor: null });
    const best = body.data[0];
    expect(best).toMatchObject({
      id: expect.stringMatching(/^pmt_/),
      projectId,
      topic: 'recommendations',
      tags: ['funnel', 'top'],
      archivedAt: null,
    });
    const enUS = best.totals.find((x: { locale: string }) => x.locale === 'en-US');
    // Two runs: mentioned twice (2 + 1 mentions of 3 + 1), pooled, never a mean of daily rates.
    expect(enUS).toMatchObject({
      totalRuns: 2,
      visibilityCount: 2,
      mentionCount: 3,
      totalMentionCount: 4,
      visibility: 1,
      shareOfVoice: 0.75,
      averagePosition: 1,
      sentiment: 0.5,
    });
    expect(enUS.byModel).toEqual([expect.objectContaining({ model: 'chatgpt', totalRuns: 2 })]);
    expect(enUS.competitors).toEqual([
      expect.objectContaining({
        name: 'Globex',
        visibilityCount: 1,
        mentionCount: 1,
        totalRuns: 2,
        totalMentionCount: 4,
      }),
    ]);
    expect(best.totals.find((x: { locale: string }) => x.locale === 'de-DE')).toMatchObject({
      totalRuns: 1,
      visibility: 0,
      shareOfVoice: null,
    });
  });

  it('filters by topic, tag and archive state', async () => {
    expect((await v1('/prompts?topic=pricing')).body.data.map((p: { text: string }) => p.text)).toEqual([
      'crm pricing',
    ]);
    expect((await v1('/prompts?tag=funnel')).body.data.map((p: { text: string }) => p.text)).toEqual([
      'best crm',
      'crm pricing',
    ]);
    await t.database.pool.query(
      "UPDATE ai_prompts SET archived_at = now() WHERE project_id = $1 AND text = 'crm reviews'",
      [projectId],
    );
    expect((await v1('/prompts')).body.meta.total).toBe(2);
    expect((await v1('/prompts?includeArchived=true')).body.meta.total).toBe(3);
    await t.database.pool.query('UPDATE ai_prompts SET archived_at = NULL WHERE project_id = $1', [projectId]);
    expect((await v1('/prompts?includeArchived=maybe')).body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'includeArchived',
    });
  });
});

describe('GET …/answers', () => {
  it('returns answers newest first (date, then id) with prompt text, competitors and citations in order', async () => {
    const { body } = await v1('/answers?dateFrom=2026-10-01&dateTo=2026-10-31');
    expect(body.meta).toEqual({ total: 6, truncated: false, nextCursor: null });
    const keys = body.data.map((a: { date: string; id: string }) => `${a.date}|${a.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    const best = body.data.find(
      (a: { prompt: string; date: string; locale: string }) =>
        a.prompt === 'best crm' && a.date === '2026-10-01' && a.locale === 'en-US',
    );
    expect(best).toMatchObject({
      id: expect.stringMatching(/^ans_/),
      projectId,
      model: 'chatgpt',
      brandMentions: 2,
      totalMentions: 3,
      position: 1,
      sentiment: 'positive',
      competitors: [{ name: 'Globex', mentions: 1, position: 2 }],
      citations: [
        { position: 1, url: 'https://blog.example.co.uk/post', domain: 'example.co.uk', title: 'Example, "quoted"' },
        { position: 2, url: 'https://www.example.co.uk/other', domain: 'example.co.uk', title: null },
        { position: 3, url: 'https://globex.com/pricing', domain: 'globex.com', title: null },
      ],
    });
  });

  it('filters by prompt, mention, cited domain, model and locale, with totals to match', async () => {
    const texts = async (query: string) => {
      const { body } = await v1(`/answers?dateFrom=2026-10-01&dateTo=2026-10-31&${query}`);
      expect(body.meta.total).toBe(body.data.length);
      return body.data
        .map((a: { prompt: string; date: string; locale: string }) => `${a.prompt}@${a.date}/${a.locale}`)
        .sort();
    };
    const prompts = (await v1('/prompts')).body.data;
    expect(await texts(`promptId=${prompts[1].id}`)).toEqual([
      'crm pricing@2026-10-01/en-US',
      'crm pricing@2026-10-02/en-US',
    ]);
    expect(await texts('mentioned=true')).toEqual([
      'best crm@2026-10-01/en-US',
      'best crm@2026-10-02/en-US',
      'crm reviews@2026-10-01/en-US',
    ]);
    expect(await texts('mentioned=false')).toHaveLength(3);
    expect(await texts('domain=reddit.com')).toEqual(['crm pricing@2026-10-01/en-US', 'crm reviews@2026-10-01/en-US']);
    expect(await texts('domain=News.Example.co.uk')).toEqual(['best crm@2026-10-01/en-US']);
    expect(await texts('locale=de-DE')).toEqual(['best crm@2026-10-01/de-DE']);
    expect(await texts('model=gemini')).toEqual([]);
    expect(await texts('mentioned=true&domain=acme.com')).toEqual([
      'best crm@2026-10-02/en-US',
      'crm reviews@2026-10-01/en-US',
    ]);
  });

  it('pages with an opaque cursor and visits every answer exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { body }: { body: any } = await v1(
        `/answers?dateFrom=2026-10-01&dateTo=2026-10-31&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...body.data.map((a: { id: string }) => a.id));
      expect(body.meta.total).toBe(6);
      expect(body.meta.truncated).toBe(body.meta.nextCursor !== null);
      cursor = body.meta.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(6);
    expect(seen).toEqual(
      (await v1('/answers?dateFrom=2026-10-01&dateTo=2026-10-31')).body.data.map((a: { id: string }) => a.id),
    );
  });

  it('visits every answer exactly once while other scans are ingested between pages', async () => {
    const ingested = await ingest(
      Array.from({ length: 8 }, (_, day) =>
        scanLine(
          `2026-09-${String(10 + day).padStart(2, '0')}`,
          Array.from({ length: 30 }, (_, i) => run(`older ${i}`)),
        ),
      ),
    );
    expect(ingested.body.data.accepted).toBe(8);
    const range = 'dateFrom=2026-09-01&dateTo=2026-10-31&locale=en-US';
    const before = new Set<string>(
      (
        await t.database.pool.query(
          "SELECT id FROM ai_answers WHERE project_id = $1 AND locale = 'en-US' AND date BETWEEN " +
            "'2026-09-01' AND '2026-10-31'",
          [projectId],
        )
      ).rows.map((row) => row.id),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const { body }: { body: any } = await v1(`/answers?${range}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...body.data.map((a: { id: string }) => a.id));
      cursor = body.meta.nextCursor;
      // Between pages: newer scans and an older backfill arrive, concurrently with the next read.
      page++;
      const day = String((page % 28) + 1).padStart(2, '0');
      await Promise.all([
        ingest([scanLine(`2026-11-${day}`, [run('newer')]), scanLine(`2026-08-${day}`, [run('backfill')])]),
      ]);
    } while (cursor);
    expect(seen.length).toBe(new Set(seen).size);
    expect([...before].filter((id) => !seen.includes(id))).toEqual([]);
    await t.database.pool.query(
      "DELETE FROM scans WHERE project_id = $1 AND (date < '2026-10-01' OR date > '2026-10-31')",
      [projectId],
    );
  });

  it('reads a boolean in any case, as Python writes it (True, False)', async () => {
    const ids = async (query: string) =>
      (await v1(`/answers?dateFrom=2026-10-01&dateTo=2026-10-31&limit=500&${query}`)).body.data.map(
        (a: { id: string }) => a.id,
      );
    for (const [word, same] of [
      ['True', 'true'],
      ['FALSE', 'false'],
    ]) {
      const answered = await ids(`mentioned=${word}`);
      expect(answered.length).toBeGreaterThan(0);
      expect(answered).toEqual(await ids(`mentioned=${same}`));
    }
    expect(await ids('mentioned=True')).not.toEqual(await ids('mentioned=false'));
  });

  it('answers 400 for bad limits, cursors and filters, naming the parameter', async () => {
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=1.5', 'limit'],
      ['cursor=nonsense', 'cursor'],
      ['cursor=WyJ4IiwieSJd', 'cursor'],
      ['mentioned=yes', 'mentioned'],
      ['mentioned=1', 'mentioned'],
      ['mentioned=truee', 'mentioned'],
      ['promptId=pmt_x', 'promptId'],
      ['domain=%20', 'domain'],
      ['model=gpt5', 'model'],
      ['dateFrom=2026-13-01', 'dateFrom'],
    ] as const) {
      const { status, body } = await v1(`/answers?${query}`);
      expect([query, status, body.error.code, body.error.param]).toEqual([query, 400, 'invalid_parameter', param]);
    }
  });
});

describe('answer cursors', () => {
  const firstPage = async (query: string, project = projectId, apiKey = key) =>
    (await json(await t.get(`/api/v1/ai-visibility/projects/${project}/answers?limit=1&${query}`, apiKey))).meta
      .nextCursor as string;
  const refusal = async (path: string, apiKey = key) => {
    const response = await t.get(path, apiKey);
    return { status: response.status, error: (await json(response)).error };
  };

  it('are bound to their workspace, project and filters: any other is 400 invalid_parameter', async () => {
    const base = 'dateFrom=2026-10-01&dateTo=2026-10-31';
    const cursor = await firstPage(`${base}&domain=reddit.com`);
    expect(cursor).toEqual(expect.any(String));
    // The same filters (a domain spelled otherwise is the same filter) with another page size go on.
    const next = await t.get(
      `/api/v1/ai-visibility/projects/${projectId}/answers?${base}&domain=WWW.Reddit.com&limit=5&cursor=${cursor}`,
      key,
    );
    expect(next.status).toBe(200);
    const bound = {
      status: 400,
      error: expect.objectContaining({
        code: 'invalid_parameter',
        param: 'cursor',
        message: expect.stringMatching(/another workspace, project or set of filters/),
      }),
    };
    for (const query of [
      `${base}&cursor=${cursor}`,
      `${base}&domain=reddit.com&locale=en-US&cursor=${cursor}`,
      `dateFrom=2026-10-02&dateTo=2026-10-31&domain=reddit.com&cursor=${cursor}`,
    ]) {
      expect(await refusal(`/api/v1/ai-visibility/projects/${projectId}/answers?${query}`), query).toEqual(bound);
    }
    expect(
      await refusal(
        `/api/v1/ai-visibility/projects/${otherProjectId}/answers?${base}&domain=reddit.com&cursor=${cursor}`,
      ),
    ).toEqual(bound);
    // Another workspace with a project of its own: the cursor is no keyset position there either.
    const stranger = await createKeyedWorkspace(t.database);
    const strangerProject = await createProject(t.database, stranger.workspace.id, {
      name: 'CRM',
      models: ['chatgpt'],
      locales: ['en-US'],
    });
    expect(
      await refusal(
        `/api/v1/ai-visibility/projects/${strangerProject.id}/answers?${base}&domain=reddit.com&cursor=${cursor}`,
        stranger.key.secret,
      ),
    ).toEqual(bound);
  });
});

describe('GET …/answers/{answerId}', () => {
  it("returns one answer; another project's answer is 404 like a missing one; a malformed id is 400", async () => {
    const [first] = (await v1('/answers?dateFrom=2026-10-01&dateTo=2026-10-31&limit=1')).body.data;
    const { status, body } = await v1(`/answers/${first.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({ data: first, meta: {} });
    const other = await t.get(`/api/v1/ai-visibility/projects/${otherProjectId}/answers/${first.id}`, key);
    expect(other.status).toBe(404);
    expect((await v1(`/answers/${newId('answer')}`)).status).toBe(404);
    expect((await v1('/answers/ans_123')).body.error).toMatchObject({ code: 'invalid_parameter', param: 'answerId' });
  });
});

describe('trend (GraphQL)', () => {
  it('pools each day, ISO week or month on its own, per model and locale', async () => {
    const trend = async (granularity: string) => {
      const response = await t.app.fetch(
        new Request('http://test.local/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({
            query:
              `{ node(id: "${projectId}") { ... on AiVisibilityProject { trend(granularity: ` +
              `${granularity}, dateFrom: "2026-09-01", dateTo: "2026-10-31", locale: "en-US") { ` +
              `period model locale totalRuns visibility } } } }`,
          }),
        }),
      );
      return (await json(response)).data.node.trend;
    };
    expect(await trend('day')).toEqual([
      { period: '2026-10-01', model: 'chatgpt', locale: 'en-US', totalRuns: 3, visibility: 2 / 3 },
      { period: '2026-10-02', model: 'chatgpt', locale: 'en-US', totalRuns: 2, visibility: 1 / 2 },
    ]);
    // Thursday 1 and Friday 2 October 2026 share the week of Monday 28 September: 3 of 5 runs, not the mean
    // of 2/3 and 1/2.
    expect(await trend('week')).toEqual([
      { period: '2026-09-28', model: 'chatgpt', locale: 'en-US', totalRuns: 5, visibility: 3 / 5 },
    ]);
    expect(await trend('month')).toEqual([
      { period: '2026-10-01', model: 'chatgpt', locale: 'en-US', totalRuns: 5, visibility: 3 / 5 },
    ]);
  });
});

describe('citation gaps (GraphQL)', () => {
  it('name the sites cited in answers that mention a competitor but not the brand', async () => {
    const response = await t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          query:
            `{ node(id: "${projectId}") { ... on AiVisibilityProject { citationGaps(dateFrom: ` +
            `"2026-10-01", dateTo: "2026-10-31") { locale domain answers citations competitorsNamed ` +
            `owned competitor } } } }`,
        }),
      }),
    );
    const body = await json(response);
    expect(body.errors).toBeUndefined();
    // Only "crm pricing" on 2026-10-01 names Globex without the brand; it cites reddit.com.
    expect(body.data.node.citationGaps).toEqual([
      {
        locale: 'en-US',
        domain: 'reddit.com',
        answers: 1,
        citations: 1,
        competitorsNamed: ['Globex'],
        owned: false,
        competitor: null,
      },
    ]);
  });
});

describe('GET …/sources', () => {
  it(
    'pools citation and answer shares per locale, marks owned and competitor domains, and orders by ' +
      'locale then citations',
    async () => {
      const { status, body } = await v1('/sources?dateFrom=2026-10-01&dateTo=2026-10-02');
      expect(status).toBe(200);
      expect(body.data.range).toEqual({ from: '2026-10-01', to: '2026-10-02' });
      // en-US: 7 citations over 5 runs; de-DE: 1 over 1.
      expect(body.data.rows).toEqual([
        {
          locale: 'de-DE',
          domain: 'wikipedia.org',
          citations: 1,
          answersCiting: 1,
          citationShare: 1,
          answerShare: 1,
          retrievals: 0,
          retrievedNotCited: 0,
          owned: false,
          competitor: null,
          url: null,
        },
        {
          locale: 'en-US',
          domain: 'acme.com',
          citations: 2,
          answersCiting: 2,
          citationShare: 2 / 7,
          answerShare: 2 / 5,
          retrievals: 0,
          retrievedNotCited: 0,
          owned: true,
          competitor: null,
          url: null,
        },
        {
          locale: 'en-US',
          domain: 'example.co.uk',
          citations: 2,
          answersCiting: 1,
          citationShare: 2 / 7,
          answerShare: 1 / 5,
          retrievals: 0,
          retrievedNotCited: 0,
          owned: false,
          competitor: null,
          url: null,
        },
        {
          locale: 'en-US',
          domain: 'reddit.com',
          citations: 2,
          answersCiting: 2,
          citationShare: 2 / 7,
          answerShare: 2 / 5,
          retrievals: 0,
          retrievedNotCited: 0,
          owned: false,
          competitor: null,
          url: null,
        },
        {
          locale: 'en-US',
          domain: 'globex.com',
          citations: 1,
          answersCiting: 1,
          citationShare: 1 / 7,
          answerShare: 1 / 5,
          retrievals: 0,
          retrievedNotCited: 0,
          owned: false,
          competitor: 'Globex',
          url: null,
        },
      ]);
      expect(body.meta).toEqual({ total: 5, truncated: false });
    },
  );

  it(
    'pools a split range to the whole: sums of the parts divided once equal the shares of the whole ' + 'range',
    async () => {
      const [whole, first, second] = await Promise.all(
        ['2026-10-01&dateTo=2026-10-02', '2026-10-01&dateTo=2026-10-01', '2026-10-02&dateTo=2026-10-02'].map(
          async (range) => (await v1(`/sources?dateFrom=${range}&locale=en-US`)).body.data.rows,
        ),
      );
      const acme = (rows: any[]) => rows.find((row) => row.domain === 'acme.com') ?? { citations: 0, answersCiting: 0 };
      expect(acme(first).citations + acme(second).citations).toBe(acme(whole).citations);
      expect(acme(first).answersCiting + acme(second).answersCiting).toBe(acme(whole).answersCiting);
      // 1/3 on day one and 1/2 on day two: their mean (0.4167) is not the pooled 2/5.
      expect(acme(whole).answerShare).toBeCloseTo(2 / 5, 12);
    },
  );

  it('groups by URL, filters by prompt, caps rows per locale, and refuses a bad groupBy', async () => {
    const byUrl = (await v1('/sources?dateFrom=2026-10-01&dateTo=2026-10-02&groupBy=url&locale=en-US')).body.data.rows;
    expect(
      byUrl.filter((row: { domain: string }) => row.domain === 'example.co.uk').map((row: { url: string }) => row.url),
    ).toEqual(['https://blog.example.co.uk/post', 'https://www.example.co.uk/other']);
    const prompts = (await v1('/prompts')).body.data;
    const forPrompt = (
      await v1(`/sources?dateFrom=2026-10-01&dateTo=2026-10-02&locale=en-US&promptId=${prompts[0].id}`)
    ).body.data.rows;
    expect(forPrompt.map((row: { domain: string; answerShare: number }) => [row.domain, row.answerShare])).toEqual([
      ['example.co.uk', 0.5],
      ['acme.com', 0.5],
      ['globex.com', 0.5],
    ]);
    const capped = await v1('/sources?dateFrom=2026-10-01&dateTo=2026-10-02&limit=1');
    expect(capped.body.data.rows.map((row: { locale: string }) => row.locale)).toEqual(['de-DE', 'en-US']);
    expect(capped.body.meta).toEqual({ total: 5, truncated: true });
    expect((await v1('/sources?groupBy=host')).body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'groupBy',
    });
    expect((await v1('/sources?limit=0')).body.error).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
  });
});
