// Issue 6: scans ingestion and the metrics endpoint under the pooled-rate contract, with
// data built so that averaging per-row rates, or mixing locales, gives different numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../../src/ingest/service.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';
import { createProject } from '../../support/projects.js';

let t: TestApp;
let key: string;
let projectId: string;

const scan = (date: string, model: string, locale: string, counters: Partial<Record<string, number>>) => ({
  project: projectId,
  date,
  model,
  locale,
  totalRuns: 0,
  visibilityCount: 0,
  mentionCount: 0,
  totalMentionCount: 0,
  positionedCount: 0,
  positionSum: 0,
  positiveCount: 0,
  neutralCount: 0,
  negativeCount: 0,
  ...counters,
});

beforeAll(async () => {
  t = await createTestApp({ METRICS_ROW_CAP: '3', INGEST_TOKEN: 'y'.repeat(40) });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  const project = await createProject(t.database, keyed.workspace.id, {
    name: 'Pooling',
    competitors: ['Globex'],
    models: ['chatgpt', 'gemini'],
    locales: ['en-US', 'de-DE'],
  });
  projectId = project.id;
  const lines = [
    // en-US: 1/1 and 10/100 → pooled 11/101, while the mean of rates would be 55 %.
    scan('2026-10-01', 'chatgpt', 'en-US', {
      totalRuns: 1,
      visibilityCount: 1,
      mentionCount: 1,
      totalMentionCount: 1,
      positionedCount: 1,
      positionSum: 1,
      positiveCount: 1,
    }),
    scan('2026-10-02', 'gemini', 'en-US', {
      totalRuns: 100,
      visibilityCount: 10,
      mentionCount: 10,
      totalMentionCount: 90,
      positionedCount: 10,
      positionSum: 50,
      negativeCount: 5,
      neutralCount: 5,
    }),
    // de-DE: a different population that must not leak into en-US.
    scan('2026-10-01', 'chatgpt', 'de-DE', {
      totalRuns: 50,
      visibilityCount: 40,
      mentionCount: 45,
      totalMentionCount: 50,
      positionedCount: 40,
      positionSum: 40,
      positiveCount: 45,
    }),
    scan('2026-10-03', 'chatgpt', 'de-DE', {
      totalRuns: 10,
      visibilityCount: 0,
      mentionCount: 0,
      totalMentionCount: 10,
    }),
    // Outside the range used below.
    scan('2026-09-01', 'chatgpt', 'en-US', {
      totalRuns: 1000,
      visibilityCount: 1000,
      mentionCount: 1000,
      totalMentionCount: 1000,
    }),
  ];
  const summary = await ingest(t.database.pool, 'scans', lines.map((line) => JSON.stringify(line)).join('\n'));
  expect(summary).toMatchObject({ accepted: 5, rejected: 0 });
});
afterAll(() => t.close());

const metrics = async (query: string) =>
  json(await t.get(`/api/v1/ai-visibility/projects/${projectId}/metrics?${query}`, key));

describe('pooled totals', () => {
  it('pool counts per locale over every row of the range, even when rows are capped', async () => {
    const body = await metrics('dateFrom=2026-10-01&dateTo=2026-10-31');
    expect(body.meta).toEqual({ total: 4, truncated: true });
    expect(body.data.rows).toHaveLength(3);
    expect(body.data.rows.map((r: { date: string }) => r.date)).toEqual(['2026-10-03', '2026-10-02', '2026-10-01']);
    const enUS = body.data.totals.find((x: { locale: string }) => x.locale === 'en-US');
    expect(enUS.totalRuns).toBe(101);
    expect(enUS.visibility).toBeCloseTo(11 / 101, 12);
    expect(enUS.visibility).not.toBeCloseTo(0.55, 2);
    expect(enUS.shareOfVoice).toBeCloseTo(11 / 91, 12);
    expect(enUS.averagePosition).toBeCloseTo(51 / 11, 12);
    expect(enUS.sentiment).toBeCloseTo((1 - 5) / 11, 12);
    expect(enUS.byModel.map((m: { model: string; visibility: number }) => [m.model, m.visibility])).toEqual([
      ['chatgpt', 1],
      ['gemini', 0.1],
    ]);
    const deDE = body.data.totals.find((x: { locale: string }) => x.locale === 'de-DE');
    expect(deDE.totalRuns).toBe(60);
    expect(deDE.visibility).toBeCloseTo(40 / 60, 12);
    expect(body.data.totals).toHaveLength(2);
  });

  it('agree with what a client computes from the returned counters', async () => {
    const body = await metrics('dateFrom=2026-10-01&dateTo=2026-10-31');
    for (const locale of body.data.totals) {
      expect(locale.visibility).toBe(locale.visibilityCount / locale.totalRuns);
      const runs = locale.byModel.reduce((s: number, m: { totalRuns: number }) => s + m.totalRuns, 0);
      expect(runs).toBe(locale.totalRuns);
    }
  });

  it('follow the model filter and return null rates for zero denominators', async () => {
    const body = await metrics('dateFrom=2026-10-01&dateTo=2026-10-31&model=chatgpt');
    expect(body.meta.total).toBe(3);
    const deDE = body.data.totals.find((x: { locale: string }) => x.locale === 'de-DE');
    expect(deDE.byModel).toHaveLength(1);
    const zeroRow = body.data.rows.find((r: { date: string }) => r.date === '2026-10-03');
    expect(zeroRow).toMatchObject({ visibility: 0, averagePosition: null, sentiment: null });
  });

  it('give an empty result, not an error, for a range without scans', async () => {
    const body = await metrics('dateFrom=2020-01-01&dateTo=2020-01-31');
    expect(body).toEqual({
      data: { projectId, range: { from: '2020-01-01', to: '2020-01-31' }, rows: [], totals: [] },
      meta: { total: 0, truncated: false },
    });
  });

  it('default to the 30 days ending today', async () => {
    const body = await metrics('');
    const today = new Date().toISOString().slice(0, 10);
    expect(body.data.range.to).toBe(today);
    expect(Date.parse(body.data.range.to) - Date.parse(body.data.range.from)).toBe(29 * 86_400_000);
  });
});

describe('scan ingestion', () => {
  const post = (lines: object[]) =>
    t.app.fetch(
      new Request('http://test.local/internal/ingest/scans', {
        method: 'POST',
        headers: { authorization: `Bearer ${'y'.repeat(40)}` },
        body: JSON.stringify(lines),
      }),
    );

  it('is idempotent on (project, date, model, locale) and records scan.completed in the outbox', async () => {
    const line = scan('2026-08-01', 'gemini', 'de-DE', {
      totalRuns: 5,
      visibilityCount: 2,
      mentionCount: 2,
      totalMentionCount: 4,
    });
    expect((await json(await post([line]))).data).toMatchObject({ accepted: 1, replaced: 0 });
    expect((await json(await post([{ ...line, totalRuns: 6 }]))).data).toMatchObject({ accepted: 0, replaced: 1 });
    const stored = await t.database.pool.query(
      "SELECT total_runs FROM scans WHERE project_id = $1 AND date = '2026-08-01'",
      [projectId],
    );
    expect(stored.rows).toEqual([{ total_runs: 6 }]);
    const events = await t.database.pool.query(
      "SELECT type, payload FROM webhook_events WHERE payload->>'projectId' = $1 AND payload->>'date' = '2026-08-01'",
      [projectId],
    );
    expect(events.rows).toHaveLength(2);
    expect(events.rows[0].type).toBe('scan.completed');
  });

  it('refuses impossible counters, untracked models and locales, naming each line, and writes nothing', async () => {
    const response = await post([
      scan('2026-07-01', 'chatgpt', 'en-US', { totalRuns: 5, visibilityCount: 6 }),
      scan('2026-07-01', 'chatgpt', 'en-US', { mentionCount: 3, totalMentionCount: 2 }),
      scan('2026-07-01', 'chatgpt', 'en-US', { totalRuns: 3, visibilityCount: 1, positionedCount: 2 }),
      scan('2026-07-01', 'claude', 'en-US', {}),
      scan('2026-07-01', 'chatgpt', 'fr-FR', {}),
      scan('2026-07-01', 'chatgpt', 'en-US', { totalRuns: 1.5 }),
      scan('2026-07-01', 'chatgpt', 'en-US', { totalRuns: -1 }),
      scan('2026-07-02', 'chatgpt', 'en-US', { totalRuns: 1 }),
    ]);
    expect(response.status).toBe(400);
    const lines = (await json(response)).error.lines;
    expect(lines.map((l: { line: number }) => l.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(lines[0].message).toContain('visibilityCount must be ≤ totalRuns');
    expect(lines[3].message).toContain('model claude is not tracked');
    const stored = await t.database.pool.query(
      "SELECT count(*)::int AS n FROM scans WHERE project_id = $1 AND date >= '2026-07-01' AND date < '2026-08-01'",
      [projectId],
    );
    expect(stored.rows[0].n).toBe(0);
  });
});
