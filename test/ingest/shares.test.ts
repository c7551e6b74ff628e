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
    INGEST_NAMING_SECONDS: '1',
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
/** A POST of scans with the service token; `body` may be a stream sent as it comes. */
const postScans = (body: BodyInit, query = '') =>
  t.app.fetch(
    new Request(`http://test.local/internal/ingest/scans${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body,
      duplex: 'half',
    } as RequestInit),
  );
const ingest = (project: string) =>
  postScans(JSON.stringify({ project, date: '2026-10-01', model: 'chatgpt', locale: 'en-US', ...counters }));

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

/** A body that starts a line and then sends nothing more until `stop` is called (a broken collector). */
function stalledBody() {
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"project": "prj_'));
      stop = () => controller.close();
    },
  });
  return { body, stop: () => stop() };
}

describe('bodies that name no workspace', () => {
  it('give their ingest back after INGEST_NAMING_SECONDS (408), so they cannot hold every one', async () => {
    const stalled = Array.from({ length: 3 }, () => stalledBody());
    const started = performance.now();
    const answers = stalled.map(({ body }) => postScans(body));
    try {
      // Every ingest of the instance is held by a body that has not named its workspace.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await ingest(projects[1]!)).status).toBe(429);
      for (const answer of await Promise.all(answers)) {
        expect(answer.status).toBe(408);
        expect(answer.headers.get('connection')).toBe('close');
        expect((await json(answer)).error.message).toMatch(
          /^The body has named no project or client after 1 s \(its first line not complete\) and arrives at under 64/,
        );
      }
      expect(performance.now() - started).toBeLessThan(5_000);
      expect((await ingest(projects[1]!)).status).toBe(200);
    } finally {
      for (const { stop } of stalled) stop();
    }
  });

  it('may take longer while they arrive at a collector pace: a first line of 1 MB over 1.6 s', async () => {
    const runs = Array.from({ length: 10 }, (_, index) => ({
      prompt: `long prompt ${index}`,
      answer: 'a'.repeat(100_000),
      brandMentions: 0,
      totalMentions: 0,
      position: null,
      sentiment: null,
    }));
    const line = Buffer.from(
      JSON.stringify({ project: projects[1], date: '2026-10-03', model: 'chatgpt', locale: 'en-US', runs }),
    );
    const piece = Math.ceil(line.length / 16);
    let sent = 0;
    // 16 pieces 100 ms apart: about 600 KB/s, past the 1 s grace before the line is complete.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= line.length) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.enqueue(line.subarray(sent, (sent += piece)));
      },
    });
    const started = performance.now();
    const answer = await postScans(body);
    expect(performance.now() - started).toBeGreaterThan(1_500);
    expect([answer.status, (await json(answer)).data?.accepted]).toEqual([200, 1]);
  });

  it('are refused once their first 10 000 lines name no project, without reading the rest', async () => {
    const lines = '{}\n'.repeat(200_000);
    const answer = await postScans(lines);
    expect(answer.status).toBe(400);
    expect((await json(answer)).error).toMatchObject({
      code: 'invalid_body',
      message: 'The first 10,000 lines name no project or client of this service; nothing was imported.',
    });
    // A body whose lines name a project after a few bad ones is checked whole, as before.
    const scan = { project: projects[1], date: '2026-10-02', model: 'chatgpt', locale: 'en-US', ...counters };
    const named = await postScans(`{}\n{}\n${JSON.stringify(scan)}`, '?skipInvalid=true');
    expect([named.status, (await json(named)).data]).toEqual([
      200,
      expect.objectContaining({ accepted: 1, rejected: 2 }),
    ]);
  });
});
