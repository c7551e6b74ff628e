import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { DEMO_OWNER_EMAIL, seedDemoIfEmpty } from '../../src/demo/first-start.js';
import { DEMO_OTHER_BRANDS } from '../../src/demo/answers.js';
import { demoFeaturesPageOf } from '../../src/demo/searches.js';
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
});

// The demo a new user meets on the first start, read as a careful reader would.
describe('the first-start demo', () => {
  let empty: TestApp;
  let demo: NonNullable<Awaited<ReturnType<typeof seedDemoIfEmpty>>>;
  beforeAll(async () => {
    empty = await createTestApp({}, { url: await createTestDatabase() });
    demo = (await seedDemoIfEmpty(empty.database.prisma, empty.database.pool))!;
  }, 180_000);
  afterAll(() => empty?.close());
  const rows = async <T extends object>(sql: string) => (await empty.database.pool.query(sql)).rows as T[];

  it('gives the demo owner a password that signs in, and a key for v1; the news in the data fires signals', async () => {
    expect(demo.ownerPassword).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const auth = await signIn(empty.app, DEMO_OWNER_EMAIL, demo.ownerPassword);
    expect((await call(empty.app, auth, 'GET', '/app/session')).status).toBe(200);
    expect((await empty.get('/api/v1/clients', demo.secret)).status).toBe(200);
    const kinds = (await rows<{ kind: string }>('SELECT DISTINCT kind FROM signals ORDER BY kind')).map((row) => row.kind);
    expect(kinds).toEqual(['average_position_worse', 'owned_citation_share_drop', 'share_of_voice_overtaken', 'visibility_drop']);
    expect(await seedDemoIfEmpty(empty.database.prisma, empty.database.pool)).toBeNull();
  });

  it('has an answer for every run of every scan, over the whole scan range', async () => {
    const [range] = await rows<{ days: number; without: number }>(
      `SELECT max(date) - min(date) + 1 AS days,
              count(*) FILTER (WHERE total_runs = 0 OR total_runs <> (SELECT count(*) FROM ai_answers a WHERE a.scan_id = s.id))::int AS without
       FROM scans s`,
    );
    expect(range).toEqual({ days: 120, without: 0 });
  });

  it('answers name exactly the brands their counts say, and the competitor their prompt asks about', async () => {
    const answers = await rows<{ text: string; prompt: string; brand_mentions: number; total_mentions: number; competitors: { name: string; mentions: number }[]; brand: string; names: string[] }>(
      `SELECT a.text, pr.text AS prompt, a.brand_mentions, a.total_mentions, a.competitors, p.brand, p.competitors AS names
       FROM ai_answers a JOIN ai_projects p ON p.id = a.project_id JOIN ai_prompts pr ON pr.id = a.prompt_id`,
    );
    const occurrences = (text: string, name: string) => text.split(new RegExp(`\\b${name}\\b`)).length - 1;
    const wrong = answers.filter((answer) => {
      const competitorMentions = answer.names.map((name) => answer.competitors.find((entry) => entry.name === name)?.mentions ?? 0);
      const others = DEMO_OTHER_BRANDS.reduce((sum, name) => sum + occurrences(answer.text, name), 0);
      return (
        occurrences(answer.text, answer.brand) !== answer.brand_mentions ||
        answer.names.some((name, index) => occurrences(answer.text, name) !== competitorMentions[index]) ||
        answer.total_mentions !== answer.brand_mentions + competitorMentions.reduce((a, b) => a + b, 0) + others ||
        answer.names.some((name) => answer.prompt.includes(name) && !answer.text.includes(name))
      );
    });
    expect(answers.length).toBeGreaterThan(1000);
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('cites each page at most once per answer', async () => {
    expect(await rows('SELECT answer_id, url, count(*)::int FROM ai_citations GROUP BY 1, 2 HAVING count(*) > 1 LIMIT 3')).toEqual([]);
    expect((await rows<{ count: number }>('SELECT count(*)::int FROM ai_citations'))[0]!.count).toBeGreaterThan(1000);
  });

  it('keeps its news: on the day visibility drops, the brand features page is read and never cited', async () => {
    const read = (
      await rows<{ brand: string; url: string; cited: boolean }>(
        `SELECT p.brand, r.url, r.cited FROM ai_answers a JOIN ai_projects p ON p.id = a.project_id, jsonb_to_recordset(a.pages_read) AS r(url text, cited boolean)
         WHERE a.date = (SELECT max(date) FROM scans) AND r.url LIKE '%/features'`,
      )
    ).filter((row) => row.url === demoFeaturesPageOf(row.brand));
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((row) => row.cited)).toEqual([]);
    // Before that day, runs naming the brand cite it.
    const citedBefore = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM ai_citations c JOIN ai_projects p ON p.id = c.project_id WHERE c.date < (SELECT max(date) FROM scans) AND c.url = 'https://www.' || lower(regexp_replace(p.brand, '[^A-Za-z0-9]', '', 'g')) || '.com/features'`,
    );
    expect(citedBefore[0]!.n).toBeGreaterThan(0);
  });

  it('has a source cited only by answers that name a competitor and leave the brand out, for the sources opportunity', async () => {
    const gaps = await rows<{ domain: string; gap: number; brand: number }>(
      `SELECT domain, sum(gap_answers)::int AS gap, sum(brand_answers)::int AS brand FROM ai_source_totals WHERE domain = 'trustradius.com' GROUP BY domain`,
    );
    expect(gaps).toEqual([{ domain: 'trustradius.com', gap: expect.any(Number), brand: 0 }]);
    expect(gaps[0]!.gap).toBeGreaterThan(10);
  });
});
