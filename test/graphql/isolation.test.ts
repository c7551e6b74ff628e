// Workspace isolation across the whole graph: every root field given a second workspace's
// ids, and every relation walked from the caller's own data, shows nothing of the other
// workspace. The walk is checked against the schema, so a new relation must join it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isObjectType } from 'graphql';
import { schema } from '../../src/graphql/schema.js';
import { isGraphOnly } from '../../src/graphql/graph-only.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { newId } from '../../src/db/ids.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
let mine: Awaited<ReturnType<typeof seeded>>;
let theirs: Awaited<ReturnType<typeof seeded>>;

async function seeded() {
  const keyed = await createKeyedWorkspace(t.database);
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 40, clients: 2 });
  const where = { where: { workspaceId: keyed.workspace.id } };
  const [clients, reports, projects] = await Promise.all([
    t.database.prisma.client.findMany(where),
    t.database.prisma.report.findMany(where),
    t.database.prisma.aiProject.findMany(where),
  ]);
  // One signal per project in place of those the seed's rules fired, so one page holds them all.
  await t.database.pool.query('DELETE FROM signals WHERE workspace_id = $1', [keyed.workspace.id]);
  for (const project of projects) {
    await t.database.prisma.signal.create({
      data: {
        id: newId('signal'),
        workspaceId: keyed.workspace.id,
        projectId: project.id,
        kind: 'visibility_drop',
        model: 'chatgpt',
        locale: 'en-US',
        details: {},
      },
    });
  }
  const scans = await t.database.pool.query<{ id: string }>('SELECT id FROM scans WHERE workspace_id = $1', [
    keyed.workspace.id,
  ]);
  const signals = await t.database.prisma.signal.findMany(where);
  const prompts = await t.database.prisma.aiPrompt.findMany(where);
  const answers = await t.database.pool.query<{ id: string }>(
    'SELECT id FROM ai_answers WHERE workspace_id = $1 ORDER BY id LIMIT 50',
    [keyed.workspace.id],
  );
  const ids = {
    client: clients.map((c) => c.id),
    report: reports.map((r) => r.id),
    project: projects.map((p) => p.id),
    scan: scans.rows.map((s) => s.id),
    signal: signals.map((s) => s.id),
    prompt: prompts.map((p) => p.id),
    answer: answers.rows.map((a) => a.id),
  };
  return { ...keyed, ids, allIds: Object.values(ids).flat() };
}

beforeAll(async () => {
  // The walks below count every nested list at its cap, far over the default cost limit.
  t = await createTestApp({ GRAPHQL_MAX_COST: String(2 ** 40) });
  mine = await seeded();
  theirs = await seeded();
});
afterAll(() => t.close());

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${mine.key.secret}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return json(response);
}

const leaked = (body: unknown) => theirs.allIds.filter((id) => JSON.stringify(body).includes(id));

describe("root fields given another workspace's ids", () => {
  const cases: [string, string, (ids: typeof theirs.ids) => Record<string, unknown>][] = [
    ['report', 'query($id: ReportId!) { report(id: $id) { data { id } } }', (ids) => ({ id: ids.report[0] })],
    [
      'reportData',
      'query($id: ReportId!) { reportData(id: $id) { data { kpis { value } } } }',
      (ids) => ({ id: ids.report[0] }),
    ],
    [
      'aiVisibilityMetrics',
      'query($id: ProjectId!) { aiVisibilityMetrics(id: $id) { data { rows { date } } } }',
      (ids) => ({ id: ids.project[0] }),
    ],
    [
      'aiVisibilityPrompts',
      'query($id: ProjectId!) { aiVisibilityPrompts(id: $id) { data { id } } }',
      (ids) => ({ id: ids.project[0] }),
    ],
    [
      'aiVisibilityAnswers',
      'query($id: ProjectId!) { aiVisibilityAnswers(id: $id) { data { id } } }',
      (ids) => ({ id: ids.project[0] }),
    ],
    [
      'aiVisibilitySources',
      'query($id: ProjectId!) { aiVisibilitySources(id: $id) { data { rows { domain } } } }',
      (ids) => ({ id: ids.project[0] }),
    ],
    [
      'aiVisibilitySearchQueries',
      'query($id: ProjectId!) { aiVisibilitySearchQueries(id: $id) { data { query } } }',
      (ids) => ({ id: ids.project[0] }),
    ],
    [
      'aiVisibilityOpportunities',
      'query($id: ProjectId!) { aiVisibilityOpportunities(id: $id) { data { prompts { promptId } } } }',
      (ids) => ({ id: ids.project[0] }),
    ],
    [
      'aiVisibilityAnswer',
      'query($id: ProjectId!, $a: AnswerId!) { aiVisibilityAnswer(id: $id, answerId: $a) { data { id } } }',
      (ids) => ({ id: ids.project[0], a: ids.answer[0] }),
    ],
  ];

  it.each(cases)('%s answers not_found', async (_name, query, variables) => {
    const body = await graphql(query, variables(theirs.ids));
    expect(body.errors?.[0]?.extensions?.code).toBe('not_found');
    expect(body.data).toBeNull();
  });

  it('my project with their answer or prompt ids: not_found, or nothing of theirs', async () => {
    const answer = await graphql(
      'query($id: ProjectId!, $a: AnswerId!) { aiVisibilityAnswer(id: $id, answerId: $a) { data { id } } }',
      { id: mine.ids.project[0], a: theirs.ids.answer[0] },
    );
    expect(answer.errors?.[0]?.extensions?.code).toBe('not_found');
    const filtered = await graphql(
      'query($id: ProjectId!, $p: PromptId!) { aiVisibilityAnswers(id: $id, promptId: $p) { data { id } meta { ' +
        'total } } aiVisibilitySources(id: $id, promptId: $p) { data { rows { domain } } meta { total } } }',
      { id: mine.ids.project[0], p: theirs.ids.prompt[0] },
    );
    expect(filtered.errors).toBeUndefined();
    expect(filtered.data.aiVisibilityAnswers).toEqual({ data: [], meta: { total: 0 } });
    expect(filtered.data.aiVisibilitySources).toEqual({ data: { rows: [] }, meta: { total: 0 } });
  });

  it('reports and aiVisibilityProjects filtered by their client are empty', async () => {
    const body = await graphql(
      'query($c: ClientId) { reports(clientId: $c) { data { id } meta { total } } aiVisibilityProjects(clientId: ' +
        '$c) { data { id } meta { total } } }',
      { c: theirs.ids.client[0] },
    );
    expect(body.data).toEqual({
      reports: { data: [], meta: { total: 0 } },
      aiVisibilityProjects: { data: [], meta: { total: 0 } },
    });
  });

  it('node and nodes give null for every one of their ids', async () => {
    const body = await graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: theirs.allIds.slice(0, 100) });
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes.every((node: unknown) => node === null)).toBe(true);
    for (const id of [
      theirs.ids.client[0],
      theirs.ids.report[0],
      theirs.ids.project[0],
      theirs.ids.scan[0],
      theirs.ids.signal[0],
      theirs.ids.prompt[0],
      theirs.ids.answer[0],
    ]) {
      expect((await graphql('query($id: ID!) { node(id: $id) { id } }', { id })).data).toEqual({ node: null });
    }
  });

  it('covers every root field that takes an id', () => {
    // webhookAttempts and webhookEvent are admin-only (no API key may call them): test/mcp/mcp.test.ts gives them
    // another workspace's ids.
    const covered = new Set([
      ...cases.map(([name]) => name),
      'reports',
      'aiVisibilityProjects',
      'node',
      'nodes',
      'webhookAttempts',
      'webhookEvent',
    ]);
    const withIds = Object.values(schema.getQueryType()!.getFields()).filter((field) =>
      field.args.some((arg) => /Id$|^ID$/.test(getNamedType(arg.type).name)),
    );
    expect(withIds.map((field) => field.name).filter((name) => !covered.has(name))).toEqual([]);
  });
});

// Every relation of the graph, walked from the caller's own clients, reports and projects.
const WALK = `{
  clients { data { id reports { data { id client { id } data { kpis { value } tables { rows { dimensionValue } } } } }
    aiVisibilityProjects { data { id client { id } metrics { data { totals { locale totalRuns } } } scans(first: 100)
      { nodes { id } } signals { nodes { id } } signalRules { kind threshold } periodComparison(currentFrom:
      "2026-01-01", currentTo: "2026-01-31", previousFrom: "2025-12-01", previousTo: "2025-12-31") { locale } } } } }
  reports { data { id client { id reports { data { id } } aiVisibilityProjects { data { id } } } data { kpis { value
    } } } }
  aiVisibilityProjects { data { id client { id } scans(first: 5) { edges { node { id } } } signals { edges { node {
    id } } } } }
  viewer { workspace { id } }
}`;
// Every day of the seed's 40, inside the narrowest range rule (the prompts list: 60 days).
const SINCE = new Date(Date.now() - 55 * 86_400_000).toISOString().slice(0, 10);
// The prompts → runs → citations side, on its own (the two together exceed the cost limit).
const WALK_ANSWERS = `{
  search(query: "visibility") { id }
  clients { data { metricsTable(provider: google_ads, metrics: [clicks], dimension: "campaign") { rows {
    dimensionValue } } topMovers(provider: google_ads, metric: clicks, dimension: "campaign") { dimensionValue } } }
  aiVisibilityProjects { data { id
    prompts(dateFrom: "${SINCE}", limit: 500) { data { id totals { locale totalRuns } metrics(dateFrom: "${SINCE}") {
      locale } searchQueries(dateFrom: "${SINCE}") { query } runs(first: 3, dateFrom: "${SINCE}") { nodes { id
      promptId citations { domain } } } } }
    sources(dateFrom: "${SINCE}") { data { rows { domain citations } } }
    topics { topic prompts } tags { tag prompts } citationGaps(dateFrom: "${SINCE}") { domain }
      opportunities(dateFrom: "${SINCE}") { prompts { promptId } } trend(granularity: month) { period }
      rulePreview(kind: visibility_drop, dateFrom: "${SINCE}") { fired } } }
}`;

describe("the graph walked from the caller's own data", () => {
  it("reaches only the caller's rows, and all of them", async () => {
    const [walked, answers] = [await graphql(WALK), await graphql(WALK_ANSWERS)];
    expect(walked.errors).toBeUndefined();
    expect(answers.errors).toBeUndefined();
    const body = { data: { ...walked.data, answers: answers.data } };
    expect(leaked(body)).toEqual([]);
    const text = JSON.stringify(body);
    for (const id of [
      ...mine.ids.client,
      ...mine.ids.report,
      ...mine.ids.project,
      ...mine.ids.signal,
      ...mine.ids.prompt,
    ])
      expect(text).toContain(id);
    expect(text).toMatch(/"ans_/);
    expect(body.data.viewer.workspace.id).toBe(mine.workspace.id);
  });

  it('walks every relation (graph-only field) of every type', () => {
    const relations = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .flatMap((type) =>
        Object.values(type.getFields())
          .filter((field) => isGraphOnly(field.extensions))
          .map((field) => field.name),
      );
    // Root fields that are not relations: the catalog (no tenant data) and the admin-only reads (API keys cannot;
    // test/mcp covers them);
    // and a single report's widget and KPI views, which read the report they hang on (test/mcp walks them with
    // another workspace's ids too).
    const missing = [...new Set(relations)].filter(
      (name) =>
        ![
          'node',
          'nodes',
          'metricCatalog',
          'webhookEndpoints',
          'webhookAttempts',
          'auditLog',
          'members',
          'apiKeys',
          'connectedApps',
          'webhookEvent',
          'widgetData',
          'kpiSummary',
        ].includes(name) && !new RegExp(`\\b${name}\\b`).test(WALK + WALK_ANSWERS),
    );
    expect(missing).toEqual([]);
  });

  it('reads no facts or scans of another workspace even through a row that points there', async () => {
    // A corrupted row: one of my reports tied to their client. The facts are bound to the
    // caller's workspace in the statement itself, so the report shows no data, not theirs.
    const definition = (
      await t.database.prisma.report.findFirstOrThrow({
        where: { workspaceId: mine.workspace.id, name: { contains: 'overview' } },
      })
    ).definition;
    const crossed = await t.database.prisma.report.create({
      data: {
        id: newId('report'),
        workspaceId: mine.workspace.id,
        clientId: theirs.ids.client[0]!,
        name: 'crossed',
        definition: definition as object,
      },
    });
    const body = await json(await t.get(`/api/v1/reports/${crossed.id}/data?datePreset=last_30_days`, mine.key.secret));
    expect(body.data.kpis.length).toBeGreaterThan(0);
    expect(body.data.kpis.every((kpi: { value: number | null }) => kpi.value === 0 || kpi.value === null)).toBe(true);

    // A scan row of their workspace filed under my project is not counted in my metrics.
    const project = mine.ids.project[0]!;
    const before = await json(await t.get(`/api/v1/ai-visibility/projects/${project}/metrics`, mine.key.secret));
    await t.database.pool.query(
      `INSERT INTO scans (id, workspace_id, project_id, date, model, locale, total_runs, visibility_count,
         mention_count, total_mention_count, positioned_count, position_sum, positive_count, neutral_count,
         negative_count)
       VALUES ($1, $2, $3, current_date - 1, 'chatgpt', 'xx-XX', 1000, 1000, 1000, 1000, 0, 0, 0, 0, 0)`,
      [newId('scan'), theirs.workspace.id, project],
    );
    const after = await json(await t.get(`/api/v1/ai-visibility/projects/${project}/metrics`, mine.key.secret));
    expect(after.data.totals).toEqual(before.data.totals);
    expect(after.meta).toEqual(before.meta);
  });
});
