// Scans written by concurrent ingestions, through HTTP on real PostgreSQL: two files taking the
// same project's scans in opposite orders both succeed (one after the other), never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { sessionsWaitingOnLocks } from '../support/database.js';
import { createProject } from '../support/projects.js';

const TOKEN = 's'.repeat(40);
let t: TestApp;
let projectId: string;

const ingest = async (lines: object[]) => {
  const response = await t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines.map((entry) => JSON.stringify(entry)).join('\n'),
    }),
  );
  return { status: response.status, body: await json(response) };
};
const counters = (totalRuns: number) => ({
  totalRuns,
  visibilityCount: 1,
  mentionCount: 1,
  totalMentionCount: 1,
  positionedCount: 0,
  positionSum: 0,
  positiveCount: 0,
  neutralCount: 0,
  negativeCount: 0,
});
const scan = (date: string, model: string, totalRuns: number) => ({
  project: projectId,
  date,
  model,
  locale: 'en-US',
  ...counters(totalRuns),
});
const day = (offset: number) => new Date(Date.UTC(2024, 0, 1 + offset)).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const { workspace } = await createKeyedWorkspace(t.database);
  projectId = (
    await createProject(t.database, workspace.id, { name: 'CRM', models: ['chatgpt', 'gemini'], locales: ['en-US'] })
  ).id;
});
afterAll(() => t.close());

describe('concurrent ingestions of one project', () => {
  it(
    'both succeed when their files take the same scans in ' + 'opposite orders (scans are written 500 to a statement)',
    async () => {
      // A and B: the scans both files change; each file writes one in its first statement and the
      // other in its second. C, in both first statements, is held by a third transaction until both
      // ingestions wait, so both are under way together: without an order between them, each
      // ends up waiting for the row the other wrote first.
      const [a, b, c] = [day(1000), day(1001), day(1002)];
      expect((await ingest([scan(c, 'chatgpt', 1)])).status).toBe(200);
      const fillers = (model: string) => Array.from({ length: 498 }, (_, index) => scan(day(index), model, 1));
      const first = [scan(a, 'chatgpt', 2), scan(c, 'chatgpt', 2), ...fillers('chatgpt'), scan(b, 'chatgpt', 2)];
      const second = [scan(b, 'chatgpt', 3), scan(c, 'chatgpt', 3), ...fillers('gemini'), scan(a, 'chatgpt', 3)];
      const holder = await t.database.pool.connect();
      try {
        await holder.query('BEGIN');
        await holder.query("SELECT 1 FROM scans WHERE project_id = $1 AND date = $2 AND model = 'chatgpt' FOR UPDATE", [
          projectId,
          c,
        ]);
        const both = Promise.all([ingest(first), ingest(second)]);
        await sessionsWaitingOnLocks(t.database.pool, 2);
        await holder.query('ROLLBACK');
        const results = await both;
        expect(results.map((result) => result.status)).toEqual([200, 200]);
      } finally {
        holder.release();
      }
      const totals = await t.database.pool.query(
        'SELECT count(DISTINCT total_runs)::int AS n FROM scans WHERE ' +
          "project_id = $1 AND date = ANY($2::date[]) AND model = 'chatgpt'",
        [projectId, [a, b, c]],
      );
      // One file after the other: the three scans hold the same file's counters.
      expect(totals.rows).toEqual([{ n: 1 }]);
    },
  );
});
