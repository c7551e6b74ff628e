import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrate, listMigrations } from '../../src/db/migrate.js';
import { printedSchema } from '../../src/graphql/schema.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { newId } from '../../src/db/ids.js';
import { createTestDatabase } from '../support/database.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';

describe('migrations', () => {
  it('apply on an empty database, and a second run changes nothing', async () => {
    const url = await createTestDatabase({ migrated: false });
    const first = await migrate(url);
    expect(first.applied).toEqual(listMigrations().map((m) => m.name));
    const second = await migrate(url);
    expect(second).toEqual({ applied: [], alreadyApplied: first.applied });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    await client.end();
    expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['workspaces', 'api_keys', 'clients', 'reports', 'metric_facts', 'scans', 'webhook_events', 'sessions', 'audit_log']));
  });

  it('run concurrently from two instances without racing', async () => {
    const url = await createTestDatabase({ migrated: false });
    const [a, b] = await Promise.all([migrate(url), migrate(url)]);
    expect([...a.applied, ...b.applied].sort()).toEqual(listMigrations().map((m) => m.name).sort());
  });
});

describe('GraphQL schema', () => {
  it('matches the committed SDL in graphql/schema.graphql (run `npm run schema:print` after a change)', () => {
    expect(`${printedSchema()}\n`).toBe(readFileSync(new URL('../../graphql/schema.graphql', import.meta.url), 'utf8'));
  });
});

describe('with a database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('seeds deterministically: the same options give the same numbers', async () => {
    const seedInto = async () => {
      const { workspace } = await createKeyedWorkspace(t.database);
      await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: workspace.id, days: 20, clients: 3, endDate: '2026-10-31' });
      const facts = await t.database.pool.query(
        `SELECT c.name, f.provider, f.date, f.dimension, f.dimension_value, f.clicks, f.sessions, f.cost
         FROM metric_facts f JOIN clients c ON c.id = f.client_id WHERE c.workspace_id = $1
         ORDER BY 1, 2, 3, 4, 5`,
        [workspace.id],
      );
      const scans = await t.database.pool.query(
        'SELECT p.name, s.date, s.model, s.locale, s.total_runs, s.visibility_count FROM scans s JOIN ai_projects p ON p.id = s.project_id WHERE s.workspace_id = $1 ORDER BY 1, 2, 3, 4',
        [workspace.id],
      );
      const reports = await t.database.prisma.report.findMany({ where: { workspaceId: workspace.id }, orderBy: { name: 'asc' }, select: { name: true, definition: true } });
      return { facts: facts.rows, scans: scans.rows, reports };
    };
    const first = await seedInto();
    const second = await seedInto();
    expect(first.facts.length).toBeGreaterThan(100);
    expect(first.scans.length).toBeGreaterThan(10);
    expect(second).toEqual(first);
  });

  it('answers only with the caller\'s workspace over GraphQL', async () => {
    const mine = await createKeyedWorkspace(t.database);
    const theirs = await createKeyedWorkspace(t.database);
    await t.database.prisma.client.create({ data: { id: newId('client'), workspaceId: mine.workspace.id, name: 'Mine' } });
    await t.database.prisma.client.create({ data: { id: newId('client'), workspaceId: theirs.workspace.id, name: 'Theirs' } });
    const response = await t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${mine.key.secret}` },
        body: JSON.stringify({ query: '{ clients { data { name } meta { total truncated } } }' }),
      }),
    );
    const body = await json(response);
    expect(body).toEqual({ data: { clients: { data: [{ name: 'Mine' }], meta: { total: 1, truncated: false } } } });
  });

  it('lists 50 clients with providers and report counts in a bounded number of SQL statements', async () => {
    const { workspace, key } = await createKeyedWorkspace(t.database);
    for (let i = 0; i < 50; i++) {
      const client = await t.database.prisma.client.create({ data: { id: newId('client'), workspaceId: workspace.id, name: `Client ${i}` } });
      await t.database.prisma.providerConnection.create({ data: { id: newId('connection'), workspaceId: workspace.id, clientId: client.id, provider: 'google_ads', externalAccountId: `acct-${i}` } });
      await t.database.prisma.report.create({ data: { id: newId('report'), workspaceId: workspace.id, clientId: client.id, name: `R${i}`, definition: {} } });
    }
    await t.get('/api/v1/clients', key.secret); // warm the key cache
    let body: { data: { reportCount: number; connectedProviders: string[] }[] } = { data: [] };
    const statements = await statementsDuring(async () => {
      body = await json(await t.get('/api/v1/clients', key.secret));
    });
    expect(body.data).toHaveLength(50);
    expect(body.data.every((c: { reportCount: number; connectedProviders: string[] }) => c.reportCount === 1 && c.connectedProviders[0] === 'google_ads')).toBe(true);
    expect(statements.length).toBeLessThanOrEqual(4);
  });
});

describe('kept GraphQL operations', () => {
  it('validate against the schema and run through /graphql with the fields v1 returns', async () => {
    const { parse, validate } = await import('graphql');
    const { schema } = await import('../../src/graphql/schema.js');
    const source = readFileSync(new URL('../../graphql/operations/v1.graphql', import.meta.url), 'utf8');
    expect(validate(schema, parse(source)).map((error) => error.message)).toEqual([]);

    const t = await createTestApp();
    try {
      const { workspace, key } = await createKeyedWorkspace(t.database);
      await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: workspace.id, days: 5, clients: 1 });
      const graphql = async (operationName: string, variables: Record<string, unknown> = {}) =>
        json(await t.app.fetch(new Request('http://test.local/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` }, body: JSON.stringify({ query: source, operationName, variables }) })));
      const reports = await graphql('Reports');
      const reportId = reports.data.reports.data[0].id;
      const viaGraphQL = await graphql('ReportData', { id: reportId, datePreset: 'last_7_days' });
      const viaRest = await json(await t.get(`/api/v1/reports/${reportId}/data?datePreset=last_7_days`, key.secret));
      expect(viaGraphQL.errors).toBeUndefined();
      expect(viaGraphQL.data.reportData.data.kpis).toEqual(viaRest.data.kpis);
    } finally {
      await t.close();
    }
  });
});
