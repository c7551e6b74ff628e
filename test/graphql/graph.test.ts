// The web app's graph over real HTTP handling and a seeded PostgreSQL: one request renders a
// client page, numbers equal v1's, relations cost a constant number of statements, and
// connections page through scans and signals newest first.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { newId } from '../../src/db/ids.js';
import { addDays } from '../../src/dates/civil-date.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';

const operations = readFileSync(new URL('../../graphql/operations/client-page.graphql', import.meta.url), 'utf8');
const today = new Date().toISOString().slice(0, 10);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function graphql(key: string, query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const response = await t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables, ...(operationName ? { operationName } : {}) }),
    }),
  );
  return json(response);
}

/** Days of data: 45 where a test compares periods with v1; the others need a few days (of scans) only. */
async function seededWorkspace(clients: number, days = 45) {
  const keyed = await createKeyedWorkspace(t.database, { timezone: 'Europe/Berlin' });
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days, clients });
  const projects = await t.database.prisma.aiProject.findMany({ where: { workspaceId: keyed.workspace.id } });
  // Exactly three signals per project, a minute apart, so ordering and paging can be checked
  // (in place of the ones the seed's rules fired on its random scans).
  await t.database.pool.query('DELETE FROM signals WHERE workspace_id = $1', [keyed.workspace.id]);
  for (const project of projects) {
    for (let index = 0; index < 3; index++) {
      await t.database.prisma.signal.create({
        data: {
          id: newId('signal'),
          workspaceId: keyed.workspace.id,
          projectId: project.id,
          kind: index === 2 ? 'sentiment_negative' : 'visibility_drop',
          model: 'chatgpt',
          locale: 'en-US',
          details: { before: 0.5, after: 0.3 - index / 10 },
          createdAt: new Date(Date.now() - (3 - index) * 60_000),
        },
      });
    }
  }
  return { ...keyed, projects };
}

describe('a client page in one request', () => {
  it(
    'returns the client, its reports with live data, its projects with pooled metrics and latest ' +
      'signals, equal to v1',
    async () => {
      const { key, projects } = await seededWorkspace(2);
      const clients = await json(await t.get('/api/v1/clients', key.secret));
      const client = clients.data.find((c: { id: string }) => c.id === projects[0]!.clientId);
      const metricsFrom = addDays(today, -29);

      const body = await graphql(
        key.secret,
        operations,
        { id: client.id, datePreset: 'last_30_days', comparePreset: 'previous_period', metricsFrom, metricsTo: today },
        'ClientPage',
      );
      expect(body.errors).toBeUndefined();
      const page = body.data.node;
      expect(page.name).toBe(client.name);
      expect(page.connectedProviders).toEqual(client.connectedProviders);

      const restReports = await json(await t.get(`/api/v1/reports?clientId=${client.id}`, key.secret));
      expect(page.reports.data.map((r: { id: string }) => r.id)).toEqual(
        restReports.data.map((r: { id: string }) => r.id),
      );
      expect(page.reports.meta).toEqual(restReports.meta);
      for (const report of page.reports.data) {
        const rest = await json(
          await t.get(
            `/api/v1/reports/${report.id}/data?datePreset=last_30_days&comparePreset=previous_period`,
            key.secret,
          ),
        );
        expect(report.data.range).toEqual(rest.data.range);
        expect(report.data.kpis).toEqual(rest.data.kpis);
        expect(report.data.charts).toEqual(rest.data.charts);
        expect(report.data.tables).toEqual(rest.data.tables);
        expect(report.data.kpis.length + report.data.charts.length + report.data.tables.length).toBeGreaterThan(0);
      }

      expect(page.aiVisibilityProjects.data.length).toBe(1);
      const project = page.aiVisibilityProjects.data[0];
      const restMetrics = await json(
        await t.get(
          `/api/v1/ai-visibility/projects/${project.id}/metrics?dateFrom=${metricsFrom}&dateTo=${today}`,
          key.secret,
        ),
      );
      expect(project.metrics.meta).toEqual(restMetrics.meta);
      expect(project.metrics.data.totals.length).toBeGreaterThan(1);
      expect(project.metrics.data.totals).toEqual(
        restMetrics.data.totals.map((total: Record<string, any>) => ({
          locale: total.locale,
          totalRuns: total.totalRuns,
          visibilityCount: total.visibilityCount,
          visibility: total.visibility,
          shareOfVoice: total.shareOfVoice,
          averagePosition: total.averagePosition,
          sentiment: total.sentiment,
          byModel: total.byModel.map((m: Record<string, any>) => ({ model: m.model, visibility: m.visibility })),
        })),
      );
      // Pooled, not averaged: the locale's visibility is Σ visibilityCount / Σ totalRuns.
      for (const total of project.metrics.data.totals)
        expect(total.visibility).toBeCloseTo(total.visibilityCount / total.totalRuns, 12);

      expect(project.signals.edges.map((edge: { node: { kind: string } }) => edge.node.kind)).toEqual([
        'sentiment_negative',
        'visibility_drop',
        'visibility_drop',
      ]);
      expect(project.signals.pageInfo.hasNextPage).toBe(false);
    },
  );
});

describe('statements per request', () => {
  it(
    'stay the same for 2 and for 6 clients with reports, report data, projects, metrics, scans and ' + 'signals',
    async () => {
      // What is counted is statements, not rows: a few days of data (the operation reads the last 7) and
      // three times the clients and projects show it as well as more would, at a fraction of the seeding.
      const count = async (clients: number) => {
        const { key } = await seededWorkspace(clients, 10);
        await graphql(key.secret, '{ viewer { scopes } }'); // warm the key cache
        let body: any;
        const statements = await statementsDuring(async () => {
          body = await graphql(key.secret, operations, { datePreset: 'last_7_days' }, 'ClientsOverview');
        });
        expect(body.errors).toBeUndefined();
        expect(body.data.clients.data).toHaveLength(clients);
        const projects = body.data.clients.data.flatMap((c: any) => c.aiVisibilityProjects.data);
        expect(projects.length).toBe(Math.ceil(clients / 2));
        expect(
          projects.every(
            (p: any) => p.scans.edges.length === 3 && p.signals.nodes.length === 3 && p.metrics.data.totals.length >= 2,
          ),
        ).toBe(true);
        expect(
          body.data.clients.data.every(
            (c: any) => c.reports.data.length === 2 && c.reports.data[0].data.kpis.length > 0,
          ),
        ).toBe(true);
        return statements.length;
      };
      const few = await count(2);
      const many = await count(6);
      console.info(`ClientsOverview: ${few} statements for 2 clients, ${many} for 6`);
      expect(many).toBe(few);
      expect(many).toBeLessThanOrEqual(12);
    },
  );
});

describe('prompts → runs → citations', () => {
  it('come in one request with the same statements for 3 prompts as for 16, numbers equal to v1', async () => {
    const projectAnswers = readFileSync(
      new URL('../../graphql/operations/project-answers.graphql', import.meta.url),
      'utf8',
    );
    const run = async (archiveAllBut: number | null) => {
      const { key, projects } = await seededWorkspace(1);
      const project = projects[0]!;
      if (archiveAllBut !== null) {
        const keep = (
          await t.database.prisma.aiPrompt.findMany({
            where: { projectId: project.id },
            orderBy: { createdAt: 'asc' },
            take: archiveAllBut,
          })
        ).map((prompt) => prompt.id);
        await t.database.prisma.aiPrompt.updateMany({
          where: { projectId: project.id, id: { notIn: keep } },
          data: { archivedAt: new Date() },
        });
      }
      await graphql(key.secret, '{ viewer { scopes } }');
      let body: any;
      const statements = await statementsDuring(async () => {
        body = await graphql(key.secret, projectAnswers, { id: project.id }, 'ProjectAnswers');
      });
      expect(body.errors).toBeUndefined();
      return { body, statements: statements.length, key: key.secret, project: project.id };
    };
    const few = await run(3);
    const many = await run(null);
    expect(few.body.data.node.prompts.data).toHaveLength(3);
    expect(many.body.data.node.prompts.data).toHaveLength(16);
    expect(
      many.body.data.node.prompts.data.every(
        (prompt: any) => prompt.runs.nodes.length === 3 && prompt.totals.length >= 2,
      ),
    ).toBe(true);
    expect(
      many.body.data.node.prompts.data.some((prompt: any) =>
        prompt.runs.nodes.some((answer: any) => answer.citations.length > 0),
      ),
    ).toBe(true);
    console.info(`ProjectAnswers: ${few.statements} statements for 3 prompts, ${many.statements} for 16`);
    expect(many.statements).toBe(few.statements);
    expect(many.statements).toBeLessThanOrEqual(8);
    // The same numbers as v1.
    const v1 = await json(await t.get(`/api/v1/ai-visibility/projects/${many.project}/prompts?limit=500`, many.key));
    expect(many.body.data.node.prompts.data.map((p: any) => p.totals.map((x: any) => x.visibility))).toEqual(
      v1.data.map((p: any) => p.totals.map((x: any) => x.visibility)),
    );
    const sources = await json(
      await t.get(`/api/v1/ai-visibility/projects/${many.project}/sources?limit=20`, many.key),
    );
    expect(many.body.data.node.sources.data.rows).toEqual(
      sources.data.rows.map((row: any) => Object.fromEntries(Object.entries(row).filter(([name]) => name !== 'url'))),
    );
  });
});

describe('node and nodes', () => {
  it('dispatch on the id prefix and give null for unknown, malformed and foreign ids', async () => {
    const mine = await seededWorkspace(1, 3);
    const theirs = await seededWorkspace(1, 3);
    const [myClient] = await t.database.prisma.client.findMany({ where: { workspaceId: mine.workspace.id } });
    const [myReport] = await t.database.prisma.report.findMany({ where: { workspaceId: mine.workspace.id } });
    const [myScan] = await t.database.prisma.scan.findMany({ where: { workspaceId: mine.workspace.id }, take: 1 });
    const [mySignal] = await t.database.prisma.signal.findMany({ where: { workspaceId: mine.workspace.id }, take: 1 });
    const [theirClient] = await t.database.prisma.client.findMany({ where: { workspaceId: theirs.workspace.id } });
    const ids = [
      myClient!.id,
      myReport!.id,
      mine.projects[0]!.id,
      myScan!.id,
      mySignal!.id,
      theirClient!.id,
      'cli_00000000000000000000',
      'nonsense',
      'usr_00000000000000000000',
    ];
    const body = await graphql(mine.key.secret, 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids });
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes).toEqual([
      { __typename: 'Client', id: myClient!.id },
      { __typename: 'Report', id: myReport!.id },
      { __typename: 'AiVisibilityProject', id: mine.projects[0]!.id },
      { __typename: 'AiVisibilityScan', id: myScan!.id },
      { __typename: 'Signal', id: mySignal!.id },
      null,
      null,
      null,
      null,
    ]);
  });

  it("refuses a node outside the key's scopes and more than 100 ids", async () => {
    const { workspace, key } = await createKeyedWorkspace(t.database, { scopes: ['reports:read'] });
    const client = await t.database.prisma.client.create({
      data: { id: newId('client'), workspaceId: workspace.id, name: 'Scoped' },
    });
    const denied = await graphql(key.secret, 'query($id: ID!) { node(id: $id) { id } }', { id: client.id });
    expect(denied.errors[0].extensions.code).toBe('insufficient_scope');
    const tooMany = await graphql(key.secret, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: Array.from({ length: 101 }, () => 'rep_00000000000000000000'),
    });
    expect(tooMany.errors[0].extensions.code).toBe('invalid_parameter');
  });
});

describe('connections', () => {
  it('page through scans newest first without gaps or repeats, with date and model filters', async () => {
    const { key, projects } = await seededWorkspace(1, 10);
    const query = `query($id: ID!, $after: String, $from: Date) { node(id: $id) { ... on AiVisibilityProject {
      scans(first: 7, after: $after, dateFrom: $from, model: chatgpt) {
        pageInfo { hasNextPage endCursor } edges { cursor node { id date model } } } } } }`;
    const from = addDays(today, -5);
    const seen: { id: string; date: string; model: string }[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const body: any = await graphql(key.secret, query, { id: projects[0]!.id, after, from });
      expect(body.errors).toBeUndefined();
      const connection = body.data.node.scans;
      seen.push(...connection.edges.map((edge: any) => edge.node));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    const expected = await t.database.pool.query(
      `SELECT id, date FROM scans WHERE project_id = $1 AND model = 'chatgpt' AND date >= $2 ORDER BY date DESC, ` +
        `id DESC`,
      [projects[0]!.id, from],
    );
    expect(expected.rows.length).toBeGreaterThan(7);
    expect(seen.map((scan) => scan.id)).toEqual(expected.rows.map((row) => row.id));
    expect(seen.every((scan) => scan.model === 'chatgpt' && scan.date >= from)).toBe(true);
  });

  it('filter signals by kind and by UTC day of createdAt', async () => {
    const { key, projects } = await seededWorkspace(1, 3);
    const query =
      'query($id: ID!, $kind: String, $from: Date, $to: Date) { node(id: $id) { ... on AiVisibilityProject { ' +
      'signals(kind: $kind, dateFrom: $from, dateTo: $to) { nodes { kind createdAt } } } } }';
    const signals = async (variables: Record<string, unknown>) =>
      (await graphql(key.secret, query, { id: projects[0]!.id, ...variables })).data.node.signals.nodes as {
        kind: string;
        createdAt: string;
      }[];
    expect((await signals({ kind: 'sentiment_negative' })).map((s) => s.kind)).toEqual(['sentiment_negative']);
    expect(await signals({ kind: 'visibility_drop' })).toHaveLength(2);
    // The signals are minutes old; their UTC days bound them (two days only around midnight).
    const days = (await signals({})).map((s) => s.createdAt.slice(0, 10)).sort();
    const [first, last] = [days[0]!, days.at(-1)!];
    expect(await signals({ from: first, to: last })).toHaveLength(3);
    expect(await signals({ from: addDays(last, 1) })).toEqual([]);
    expect(await signals({ to: addDays(first, -1) })).toEqual([]);
  });

  it('refuses a forged cursor and a page size out of range with invalid_parameter', async () => {
    const { key, projects } = await seededWorkspace(1, 3);
    const query =
      'query($id: ID!, $after: String, $first: Int) { node(id: $id) { ... on AiVisibilityProject { signals(first: ' +
      '$first, after: $after) { nodes { id } } } } }';
    const forged = Buffer.from(JSON.stringify(['not a time', 'sig_x'])).toString('base64url');
    for (const variables of [{ after: forged }, { after: 'garbage!' }, { first: 0 }, { first: 101 }]) {
      const body = await graphql(key.secret, query, { id: projects[0]!.id, ...variables });
      expect(body.errors?.[0]?.extensions?.code).toBe('invalid_parameter');
    }
  });
});

describe('viewer', () => {
  it("names the workspace, plan and the key's scopes", async () => {
    const { workspace, key } = await createKeyedWorkspace(t.database, { scopes: ['clients:read', 'reports:read'] });
    const body = await graphql(key.secret, operations, {}, 'Viewer');
    expect(body.data.viewer).toEqual({
      credential: 'API_KEY',
      scopes: ['clients:read', 'reports:read'],
      role: null,
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.slug, plan: 'agency', timezone: 'UTC' },
    });
  });
});
