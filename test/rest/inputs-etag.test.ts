// A versioned v1 answer (a report, its data, AI-visibility metrics) is named by its inputs: its
// ETag is known before it is computed, so a matching If-None-Match is answered 304 without
// running the report's statements, and the tag does not depend on a cache holding the body.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { ingest } from '../../src/ingest/service.js';
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

describe('the day an answer depends on', () => {
  afterEach(() => vi.useRealTimers());
  const at = (instant: string) => vi.setSystemTime(new Date(instant));

  it("keeps a report's data tag all day and moves it at midnight in the report's time zone", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-18T10:00:00Z') });
    const { key, report, path } = await seededReportData();
    const definition = (await t.database.prisma.report.findUniqueOrThrow({ where: { id: report.id } })).definition;
    const dateConfig = { ...(definition as { dateConfig: object }).dateConfig, timezone: 'America/New_York' };
    await t.database.prisma.report.update({
      where: { id: report.id },
      data: { definition: { ...(definition as object), dateConfig } },
    });
    const tagAt = async (instant: string) => {
      at(instant);
      return (await t.get(path, key.secret)).headers.get('etag');
    };
    const morning = await tagAt('2026-11-18T10:00:00Z');
    // Past several 15-minute boundaries, and past midnight in UTC, it is still 18 November in New York.
    expect(await tagAt('2026-11-18T10:20:00Z')).toBe(morning);
    expect(await tagAt('2026-11-19T04:59:00Z')).toBe(morning);
    expect(await tagAt('2026-11-19T05:01:00Z')).not.toBe(morning);
  });

  it("keeps a report's definition tag through ingests of its client's facts and moves it with an edit", async () => {
    const { key, report } = await seededReportData();
    const path = `/api/v1/reports/${report.id}`;
    const tag = (await t.get(path, key.secret)).headers.get('etag')!;
    const line = { client: report.clientId, provider: 'google_ads', date: '2026-11-01', metrics: { clicks: 1 } };
    expect(await ingest(t.database.pool, 'metrics', JSON.stringify(line))).toMatchObject({ accepted: 1 });
    expect((await t.get(path, key.secret, { headers: { 'if-none-match': tag } })).status).toBe(304);
    await t.database.prisma.report.update({ where: { id: report.id }, data: { name: 'Edited' } });
    expect((await t.get(path, key.secret, { headers: { 'if-none-match': tag } })).status).toBe(200);
  });
});
