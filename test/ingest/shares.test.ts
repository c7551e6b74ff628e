// A workspace's share of the ingests running at once: once a body names one of its projects, no
// more than INGEST_MAX_CONCURRENT_PER_WORKSPACE of its ingests run, and another workspace's
// ingest still runs beside them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { sessionsWaitingOnLocks } from '../support/database.js';
import { createProject } from '../support/projects.js';

const TOKEN = 'w'.repeat(40);
let t: TestApp;
const projects: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    INGEST_TOKEN: TOKEN,
    INGEST_MAX_CONCURRENT: '3',
    INGEST_MAX_CONCURRENT_PER_WORKSPACE: '1',
  });
  for (let index = 0; index < 2; index++) {
    const { workspace } = await createKeyedWorkspace(t.database);
    projects.push(
      (await createProject(t.database, workspace.id, { name: 'Share', models: ['chatgpt'], locales: ['en-US'] })).id,
    );
  }
});
afterAll(() => t.close());

const counters = {
  totalRuns: 1,
  visibilityCount: 1,
  mentionCount: 1,
  totalMentionCount: 1,
  positionedCount: 0,
  positionSum: 0,
  positiveCount: 0,
  neutralCount: 0,
  negativeCount: 0,
};
const ingest = (project: string) =>
  t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ project, date: '2026-10-01', model: 'chatgpt', locale: 'en-US', ...counters }),
    }),
  );

describe('ingests of one workspace at once', () => {
  it(
    'past its share, one more naming its projects is 429 ' + 'naming the workspace; another workspace is served',
    async () => {
      // The first ingest holds its workspace's share while it waits to write: its project's row is locked.
      const holder = await t.database.pool.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM ai_projects WHERE id = $1 FOR UPDATE', [projects[0]]);
        const first = ingest(projects[0]!);
        await sessionsWaitingOnLocks(t.database.pool, 1);
        const refused = await ingest(projects[0]!);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('2');
        expect((await json(refused)).error.message).toMatch(/^Workspace ws_\w+ already runs 1 ingest \(its limit\)/);
        expect((await ingest(projects[1]!)).status).toBe(200);
        await holder.query('ROLLBACK');
        expect((await first).status).toBe(200);
      } finally {
        holder.release();
      }
      expect((await ingest(projects[0]!)).status).toBe(200);
    },
  );
});
