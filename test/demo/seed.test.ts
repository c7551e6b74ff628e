import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { DEMO_OWNER_EMAIL, seedDemoIfEmpty } from '../../src/demo/first-start.js';
import { createTestDatabase } from '../support/database.js';
import { call, signIn } from '../support/web.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';

describe('demo seed', () => {
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

  it('on the first start of an empty database gives the demo owner a password that signs in, and a key for v1; the news in the data fires signals', async () => {
    const empty = await createTestApp({}, { url: await createTestDatabase() });
    try {
      const demo = (await seedDemoIfEmpty(empty.database.prisma, empty.database.pool))!;
      expect(demo.ownerPassword).toMatch(/^[A-Za-z0-9_-]{20}$/);
      const auth = await signIn(empty.app, DEMO_OWNER_EMAIL, demo.ownerPassword);
      expect((await call(empty.app, auth, 'GET', '/app/session')).status).toBe(200);
      expect((await empty.get('/api/v1/clients', demo.secret)).status).toBe(200);
      const kinds = (await empty.database.pool.query<{ kind: string }>('SELECT DISTINCT kind FROM signals ORDER BY kind')).rows.map((row) => row.kind);
      expect(kinds).toEqual(['average_position_worse', 'owned_citation_share_drop', 'share_of_voice_overtaken', 'visibility_drop']);
      expect(await seedDemoIfEmpty(empty.database.prisma, empty.database.pool)).toBeNull();
    } finally {
      await empty.close();
    }
  }, 60_000);
});
