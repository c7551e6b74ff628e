// A versioned v1 answer (a report, its data, AI-visibility metrics) is named by its inputs: its
// ETag is known before it is computed, so a matching If-None-Match is answered 304 without
// running the report's statements, and the tag does not depend on a cache holding the body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';

let t: TestApp;
beforeAll(async () => {
  // The data cache off: every 200 computes its body, so only the ETag can spare the work.
  t = await createTestApp({ DATA_CACHE_MAX_BYTES: '0' });
});
afterAll(() => t.close());

async function seededReportData() {
  const { workspace, key } = await createKeyedWorkspace(t.database);
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: workspace.id, days: 10, clients: 1 });
  const [report] = (await json(await t.get('/api/v1/reports', key.secret))).data;
  return { key, report, path: `/api/v1/reports/${report.id}/data?datePreset=last_7_days` };
}

describe('ETags named by their inputs', () => {
  it('answers a matching If-None-Match with 304 without computing the answer', async () => {
    const { key, path } = await seededReportData();
    let first!: Response;
    const computing = await statementsDuring(async () => (first = await t.get(path, key.secret)));
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

    let again!: Response;
    const revalidating = await statementsDuring(
      async () => (again = await t.get(path, key.secret, { headers: { 'if-none-match': etag } })),
    );
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    // The probe that reads the report's row and version, and nothing of its data.
    expect(revalidating.length).toBe(1);
    expect(computing.length).toBeGreaterThan(revalidating.length);
  });

  it('gives the same tag to the same inputs and a new one when an argument or the data moves', async () => {
    const { key, report, path } = await seededReportData();
    const tagOf = async (p: string) => (await t.get(p, key.secret)).headers.get('etag');
    const tag = await tagOf(path);
    expect(await tagOf(path)).toBe(tag);
    expect(await tagOf(path.replace('last_7_days', 'last_30_days'))).not.toBe(tag);

    await t.database.prisma.report.update({ where: { id: report.id }, data: { name: 'Renamed' } });
    const moved = await t.get(path, key.secret, { headers: { 'if-none-match': tag! } });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).not.toBe(tag);
  });

  it("never gives one workspace's tag to another's identical request", async () => {
    const a = await seededReportData();
    const b = await createKeyedWorkspace(t.database);
    const tag = (await t.get(a.path, a.key.secret)).headers.get('etag')!;
    const foreign = await t.get(a.path, b.key.secret, { headers: { 'if-none-match': tag } });
    expect(foreign.status).toBe(404);
  });
});
