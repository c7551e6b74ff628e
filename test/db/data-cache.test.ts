// The report-data and metrics cache: repeated requests are answered from memory, and the
// request after an ingest reflects the new data — on another instance too — because the data
// version that every ingest bumps is part of the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCache } from '../../src/db/data-cache.js';
import { ClientGone } from '../../src/db/workspace-scope.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { addDays } from '../../src/dates/civil-date.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';

describe('the data cache', () => {
  it('stays within its byte bound, evicting the least recently used', () => {
    const cache = createDataCache(10_000);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, { payload: 'x'.repeat(400), i });
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBeLessThan(100);
    expect(cache.get('k99')).toEqual({ payload: 'x'.repeat(400), i: 99 });
    expect(cache.get('k0')).toBeUndefined();
  });

  it("lets a caller that joined a computation compute for itself when the first caller's client left", async () => {
    const cache = createDataCache(10_000);
    // The first caller's statements stop once its client left (at once when it asks again); the second's stays.
    let gone = false;
    const pending: ((error: unknown) => void)[] = [];
    const first = cache.getOrCompute(
      'gone',
      () => new Promise<{ n: number }>((_, reject) => (gone ? reject(new ClientGone()) : pending.push(reject))),
    );
    const joined = cache.getOrCompute('gone', async () => ({ n: 2 }));
    gone = true;
    for (const reject of pending) reject(new ClientGone());
    await expect(first).rejects.toBeInstanceOf(ClientGone);
    expect(await joined).toEqual({ n: 2 });
    expect(cache.get('gone')).toEqual({ n: 2 });
  });

  it('computes a missing value once for callers asking together, keeps it, retries after a failure', async () => {
    const cache = createDataCache(10_000);
    const finishers: ((value: { n: number }) => void)[] = [];
    const compute = () => new Promise<{ n: number }>((resolve) => finishers.push(resolve));
    const together = Array.from({ length: 5 }, () => cache.getOrCompute('k', compute));
    finishers.forEach((finish, index) => finish({ n: index }));
    const values = await Promise.all(together);
    const computations = finishers.length;
    expect(computations).toBe(1);
    for (const value of values) expect(value).toBe(values[0]);
    expect(await cache.getOrCompute('k', compute)).toBe(values[0]);
    expect(finishers).toHaveLength(1);

    const failing = () => Promise.reject(new Error('query failed'));
    await expect(Promise.all([cache.getOrCompute('f', failing), cache.getOrCompute('f', failing)])).rejects.toThrow(
      'query failed',
    );
    expect(await cache.getOrCompute('f', async () => ({ n: 2 }))).toEqual({ n: 2 });
    expect(cache.get('f')).toEqual({ n: 2 });
    // A computation that throws before it returns a promise is not left in flight either.
    const throwing = (): Promise<{ n: number }> => {
      throw new Error('bad input');
    };
    await expect(cache.getOrCompute('t', throwing)).rejects.toThrow('bad input');
    expect(await cache.getOrCompute('t', async () => ({ n: 3 }))).toEqual({ n: 3 });
  });

  it('shares nothing when it is off: every caller computes', async () => {
    const cache = createDataCache(0);
    let computations = 0;
    await Promise.all(Array.from({ length: 3 }, () => cache.getOrCompute('k', async () => ({ n: ++computations }))));
    expect(computations).toBe(3);
  });
});

const TOKEN = 'i'.repeat(40);

describe('two instances over one database', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ INGEST_TOKEN: TOKEN });
    b = await createTestApp({ INGEST_TOKEN: TOKEN }, { url: a.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const ingest = (app: TestApp, kind: 'metrics' | 'scans', lines: object[]) =>
    app.app.fetch(
      new Request(`http://test.local/internal/ingest/${kind}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: lines.map((line) => JSON.stringify(line)).join('\n'),
      }),
    );

  it('serve repeated report data from memory and new facts right after an ingest on the other instance', async () => {
    const { workspace, key } = await createKeyedWorkspace(a.database);
    await seedWorkspace(a.database.prisma, a.database.pool, { workspaceId: workspace.id, days: 20, clients: 1 });
    const report = await a.database.prisma.report.findFirstOrThrow({
      where: { workspaceId: workspace.id, name: { contains: 'overview' } },
    });
    const path = `/api/v1/reports/${report.id}/data?datePreset=last_7_days&comparePreset=none`;
    const sessions = async (app: TestApp) =>
      (await json(await app.get(path, key.secret))).data.kpis.find(
        (kpi: { metric: string }) => kpi.metric === 'sessions',
      ).value as number;

    const before = await sessions(a);
    expect(await sessions(b)).toBe(before);
    // Cached: the repeat runs the report lookup but no aggregation.
    const statements = await statementsDuring(() => b.get(path, key.secret));
    expect(statements.some((text) => text.includes('metric_facts'))).toBe(false);

    // Ingest 1 000 more sessions on a day in the range, through instance A.
    const day = addDays(new Date().toISOString().slice(0, 10), -2);
    const current = await a.database.pool.query(
      'SELECT sessions FROM metric_facts WHERE client_id = $1 AND provider = $2 AND date = $3 AND dimension = $4',
      [report.clientId, 'google_analytics', day, ''],
    );
    const stored = Number(current.rows[0].sessions);
    expect(
      (
        await ingest(a, 'metrics', [
          { client: report.clientId, provider: 'google_analytics', date: day, metrics: { sessions: stored + 1_000 } },
        ])
      ).status,
    ).toBe(200);

    expect(await sessions(b)).toBe(before + 1_000);
    expect(await sessions(a)).toBe(before + 1_000);
  });

  it('do the same for AI-visibility metrics', async () => {
    const { workspace, key } = await createKeyedWorkspace(a.database);
    // The seed's last day, named here: "yesterday" read again later would be another day after midnight (UTC).
    const day = addDays(new Date().toISOString().slice(0, 10), -1);
    await seedWorkspace(a.database.prisma, a.database.pool, {
      workspaceId: workspace.id,
      days: 10,
      clients: 1,
      endDate: day,
    });
    const project = await a.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
    const path = `/api/v1/ai-visibility/projects/${project.id}/metrics`;
    const runs = async (app: TestApp) =>
      (await json(await app.get(path, key.secret))).data.totals.find(
        (t: { locale: string }) => t.locale === project.locales[0],
      ).totalRuns as number;

    const before = await runs(a);
    expect(await runs(b)).toBe(before);
    // The finished body is cached: a repeated poll runs only the project's data-version probe.
    const statements = await statementsDuring(() => b.get(path, key.secret));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('data_version');

    const existing = await a.database.pool.query(
      'SELECT total_runs, visibility_count, mention_count, total_mention_count, positioned_count, position_sum, ' +
        'positive_count, neutral_count, negative_count FROM scans ' +
        'WHERE project_id = $1 AND date = $2 AND model = $3 AND locale = $4',
      [project.id, day, project.models[0], project.locales[0]],
    );
    const row = existing.rows[0];
    const line = {
      project: project.id,
      date: day,
      model: project.models[0],
      locale: project.locales[0],
      totalRuns: row.total_runs + 500,
      visibilityCount: row.visibility_count,
      mentionCount: row.mention_count,
      totalMentionCount: row.total_mention_count,
      positionedCount: row.positioned_count,
      positionSum: row.position_sum,
      positiveCount: row.positive_count,
      neutralCount: row.neutral_count,
      negativeCount: row.negative_count,
    };
    expect((await ingest(a, 'scans', [line])).status).toBe(200);
    expect(await runs(b)).toBe(before + 500);
  });

  it('computes metrics once for the polls that miss them together', async () => {
    const seeded = async () => {
      const { workspace, key } = await createKeyedWorkspace(a.database);
      await seedWorkspace(a.database.prisma, a.database.pool, { workspaceId: workspace.id, days: 10, clients: 1 });
      const project = await a.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
      return { key, path: `/api/v1/ai-visibility/projects/${project.id}/metrics` };
    };
    // What computing the metrics sends: everything but the key lookup and the per-request version probe.
    const computing = (statements: string[]) => statements.filter((text) => !/api_keys|data_version/.test(text));
    const alone = await seeded();
    const once = computing(await statementsDuring(() => a.get(alone.path, alone.key.secret)));
    expect(once.length).toBeGreaterThan(0);

    const together = await seeded();
    let responses: Response[] = [];
    const statements = computing(
      await statementsDuring(
        async () =>
          (responses = await Promise.all(Array.from({ length: 8 }, () => a.get(together.path, together.key.secret)))),
      ),
    );
    expect(statements).toHaveLength(once.length);
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((response) => response.headers.get('etag'))).size).toBe(1);
    expect(new Set(bodies).size).toBe(1);
  });

  it('recomputes a report whose definition changed', async () => {
    const { workspace, key } = await createKeyedWorkspace(a.database);
    await seedWorkspace(a.database.prisma, a.database.pool, { workspaceId: workspace.id, days: 5, clients: 1 });
    const report = await a.database.prisma.report.findFirstOrThrow({
      where: { workspaceId: workspace.id, name: { contains: 'overview' } },
    });
    const path = `/api/v1/reports/${report.id}/data?datePreset=last_7_days`;
    const kpiCount = async () => (await json(await b.get(path, key.secret))).data.kpis.length as number;
    const before = await kpiCount();
    const definition = report.definition as { widgets: { type: string }[] };
    await a.database.prisma.report.update({
      where: { id: report.id },
      data: { definition: { ...definition, widgets: definition.widgets.filter((w) => w.type !== 'kpi') } },
    });
    expect(before).toBeGreaterThan(0);
    expect(await kpiCount()).toBe(0);
  });
});
