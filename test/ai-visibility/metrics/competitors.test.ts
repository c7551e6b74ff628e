// Competitor counters: stored per scan, shown on metrics rows, and pooled per locale exactly
// like the brand (Σ counts over Σ runs and mentions of the scans that report the competitor),
// with the same bounds checked at ingestion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';
import { createProject } from '../../support/projects.js';

const TOKEN = 'c'.repeat(40);
let t: TestApp;
let key: string;
let projectId: string;

const scan = (date: string, locale: string, counters: Record<string, number>, competitors: object[]) => ({
  project: projectId,
  date,
  model: 'chatgpt',
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
  competitors,
});

const post = (lines: object[]) =>
  t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(lines),
    }),
  );

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  projectId = (
    await createProject(t.database, keyed.workspace.id, {
      name: 'Rivals',
      competitors: ['Globex', 'Initech'],
      models: ['chatgpt'],
      locales: ['en-US', 'de-DE'],
    })
  ).id;
  const response = await post([
    // en-US: Globex 1/2 runs, then 3/100 → pooled 4/102 (the mean of rates would be 26.5 %).
    scan('2026-10-01', 'en-US', { totalRuns: 2, visibilityCount: 1, mentionCount: 1, totalMentionCount: 4 }, [
      { name: 'Globex', visibilityCount: 1, mentionCount: 2, positionedCount: 1, positionSum: 2 },
    ]),
    scan('2026-10-02', 'en-US', { totalRuns: 100, visibilityCount: 50, mentionCount: 60, totalMentionCount: 100 }, [
      { name: 'Globex', visibilityCount: 3, mentionCount: 4, positionedCount: 3, positionSum: 9 },
      { name: 'Initech', visibilityCount: 20, mentionCount: 30, positionedCount: 10, positionSum: 10 },
    ]),
    // A scan without competitor counters: its runs do not dilute the competitors' rates.
    scan('2026-10-03', 'en-US', { totalRuns: 1000, visibilityCount: 10, mentionCount: 10, totalMentionCount: 10 }, []),
    // de-DE is its own population.
    scan('2026-10-01', 'de-DE', { totalRuns: 10, visibilityCount: 1, mentionCount: 1, totalMentionCount: 10 }, [
      { name: 'Globex', visibilityCount: 9, mentionCount: 9, positionedCount: 9, positionSum: 9 },
    ]),
  ]);
  expect(response.status).toBe(200);
});
afterAll(() => t.close());

describe('competitor counters', () => {
  it('appear on each metrics row with rates against that scan', async () => {
    const body = await json(
      await t.get(`/api/v1/ai-visibility/projects/${projectId}/metrics?dateFrom=2026-10-01&dateTo=2026-10-31`, key),
    );
    const row = body.data.rows.find(
      (r: { date: string; locale: string }) => r.date === '2026-10-02' && r.locale === 'en-US',
    );
    expect(row.competitors).toEqual([
      {
        name: 'Globex',
        visibilityCount: 3,
        mentionCount: 4,
        positionedCount: 3,
        positionSum: 9,
        totalRuns: 100,
        totalMentionCount: 100,
        visibility: 0.03,
        shareOfVoice: 0.04,
        averagePosition: 3,
      },
      {
        name: 'Initech',
        visibilityCount: 20,
        mentionCount: 30,
        positionedCount: 10,
        positionSum: 10,
        totalRuns: 100,
        totalMentionCount: 100,
        visibility: 0.2,
        shareOfVoice: 0.3,
        averagePosition: 1,
      },
    ]);
    expect(body.data.rows.find((r: { date: string }) => r.date === '2026-10-03').competitors).toEqual([]);
  });

  it('are pooled per locale like the brand, locales apart, equal to a plain recomputation', async () => {
    const body = await json(
      await t.get(`/api/v1/ai-visibility/projects/${projectId}/metrics?dateFrom=2026-10-01&dateTo=2026-10-31`, key),
    );
    const enUS = body.data.totals.find((x: { locale: string }) => x.locale === 'en-US');
    const globex = enUS.competitors.find((c: { name: string }) => c.name === 'Globex');
    expect(globex).toMatchObject({ visibilityCount: 4, mentionCount: 6, totalRuns: 102, totalMentionCount: 104 });
    expect(globex.visibility).toBeCloseTo(4 / 102, 12);
    expect(globex.visibility).not.toBeCloseTo((0.5 + 0.03) / 2, 3);
    expect(globex.shareOfVoice).toBeCloseTo(6 / 104, 12);
    expect(globex.averagePosition).toBeCloseTo(11 / 4, 12);
    expect(enUS.competitors.map((c: { name: string }) => c.name)).toEqual(['Globex', 'Initech']);
    const deDE = body.data.totals.find((x: { locale: string }) => x.locale === 'de-DE');
    expect(deDE.competitors).toEqual([
      {
        name: 'Globex',
        visibilityCount: 9,
        mentionCount: 9,
        positionedCount: 9,
        positionSum: 9,
        totalRuns: 10,
        totalMentionCount: 10,
        visibility: 0.9,
        shareOfVoice: 0.9,
        averagePosition: 1,
      },
    ]);
    // The same numbers through GraphQL.
    const graph = await json(
      await t.app.fetch(
        new Request('http://test.local/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({
            query:
              `{ aiVisibilityMetrics(id: "${projectId}", dateFrom: "2026-10-01", dateTo: ` +
              `"2026-10-31") { data { totals { locale competitors { name visibility } } } } }`,
          }),
        }),
      ),
    );
    expect(
      graph.data.aiVisibilityMetrics.data.totals.find((x: { locale: string }) => x.locale === 'en-US').competitors[0]
        .visibility,
    ).toBeCloseTo(4 / 102, 12);
  });

  it('refuse untracked names, duplicates and impossible counters, naming each line, and write nothing', async () => {
    const base = { totalRuns: 10, visibilityCount: 1, mentionCount: 1, totalMentionCount: 5 };
    const ok = { visibilityCount: 1, mentionCount: 1, positionedCount: 0, positionSum: 0 };
    const response = await post([
      scan('2026-11-01', 'en-US', base, [{ name: 'Hooli', ...ok }]),
      scan('2026-11-02', 'en-US', base, [
        { name: 'Globex', ...ok },
        { name: 'Globex', ...ok },
      ]),
      scan('2026-11-03', 'en-US', base, [{ name: 'Globex', ...ok, visibilityCount: 11 }]),
      scan('2026-11-04', 'en-US', base, [{ name: 'Globex', ...ok, mentionCount: 5 }]),
      scan('2026-11-05', 'en-US', base, [{ name: 'Globex', ...ok, positionedCount: 2 }]),
      scan('2026-11-06', 'en-US', base, [{ name: 'Globex', ...ok, extra: 1 }]),
      scan('2026-11-07', 'en-US', base, [{ name: 'Globex', ...ok }]),
    ]);
    expect(response.status).toBe(400);
    const lines = (await json(response)).error.lines;
    expect(lines.map((l: { line: number }) => l.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(lines[0].message).toContain('competitor Hooli is not tracked');
    expect(lines[1].message).toContain('given twice');
    expect(lines[2].message).toContain('visibilityCount must be ≤ totalRuns');
    expect(lines[3].message).toContain('brand and its competitors together');
    expect(lines[4].message).toContain('positionedCount must be ≤ visibilityCount');
    const stored = await t.database.pool.query(
      "SELECT count(*)::int AS n FROM scans WHERE project_id = $1 AND date >= '2026-11-01'",
      [projectId],
    );
    expect(stored.rows[0].n).toBe(0);
  });
});
