// The per-workspace cap on requests in flight, through a listening server and a real database:
// a workspace whose requests are held open (exports whose clients stopped reading), with no room
// to wait (its waiting line: workspace-queue.test.ts), is refused its next request with 429 and
// Retry-After on every door, while another workspace is served;
// once the held requests end (their clients went away) the workspace is admitted again, and
// requests that fail give their share back too.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { listen } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { createProject, ONE_SERIES_PROJECT } from '../support/projects.js';

const TOKEN = 'c'.repeat(40);
/** Far more than socket buffers take (12 MB), so an export that is not read stays open. */
const ANSWERS = 3_000;
const TEXT = 'x'.repeat(4_000);

let t: TestApp;
let baseUrl: string;
let closeServer: () => Promise<void>;
let a: { key: string; projectId: string; workspaceId: string; ownerEmail: string };
let b: { key: string };

beforeAll(async () => {
  // Two requests per workspace and none waiting; two exports per key, so exports alone never refuse here.
  t = await createTestApp({
    INGEST_TOKEN: TOKEN,
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '2',
    WORKSPACE_MAX_WAITING_REQUESTS: '0',
    EXPORT_POOL_SIZE: '4',
    EXPORTS_PER_WORKSPACE: '3',
    EXPORTS_PER_KEY: '3',
    RESPONSE_STALL_SECONDS: '600',
    EXPORT_IDLE_SECONDS: '900',
  });
  const keyed = await createKeyedWorkspace(t.database, { plan: 'scale' });
  const project = await createProject(t.database, keyed.workspace.id, ONE_SERIES_PROJECT);
  const lines = [0, 1, 2].map((day) => ({
    project: project.id,
    date: `2026-10-0${day + 1}`,
    model: 'chatgpt',
    locale: 'en-US',
    runs: Array.from({ length: ANSWERS / 3 }, (_, index) => ({
      prompt: `prompt ${index}`,
      answer: `${index} ${TEXT}`,
      brandMentions: 0,
      totalMentions: 0,
      position: null,
      sentiment: null,
      citations: [],
    })),
  }));
  const ingested = await t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines.map((line) => JSON.stringify(line)).join('\n'),
    }),
  );
  expect(ingested.status).toBe(200);
  a = { key: keyed.key.secret, projectId: project.id, workspaceId: keyed.workspace.id, ownerEmail: keyed.ownerEmail };
  b = { key: (await createKeyedWorkspace(t.database, { plan: 'scale' })).key.secret };
  const served = await listen(t.app);
  baseUrl = served.baseUrl;
  closeServer = served.close;
});

afterAll(async () => {
  await closeServer?.();
  await t?.close();
});

/** An export whose client takes its first chunk and then stops reading; `leave` destroys the connection. */
function holdExport(): Promise<{ status: number; leave(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}/api/v1/ai-visibility/projects/${a.projectId}/answers?dateFrom=2026-10-01&dateTo=2026-10-31`,
      { headers: { authorization: `Bearer ${a.key}`, accept: 'text/csv' } },
    );
    req.once('error', reject);
    req.on('response', (res) => {
      res.once('data', () => {
        res.pause();
        resolve({ status: res.statusCode!, leave: () => req.destroy() });
      });
    });
    req.end();
  });
}

const clients = (key: string) => fetch(`${baseUrl}/api/v1/clients`, { headers: { authorization: `Bearer ${key}` } });
const graphql = (key: string) =>
  fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ clients { data { id } } }' }),
  });

describe('requests in flight per workspace (2 here)', () => {
  it(
    'refuses the workspace past its cap with 429 and Retry-After while another ' +
      'workspace is served, and admits it again once its requests end',
    async () => {
      const held = [await holdExport(), await holdExport()];
      try {
        expect(held.map((each) => each.status)).toEqual([200, 200]);
        const refused = await clients(a.key);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('1');
        expect((await refused.json()).error).toMatchObject({
          code: 'rate_limited',
          message: expect.stringContaining('2 requests in flight and 0 waiting'),
          requestId: expect.any(String),
        });
        const refusedGraphQL = await graphql(a.key);
        expect(refusedGraphQL.status).toBe(429);
        expect(refusedGraphQL.headers.get('retry-after')).toBe('1');
        await refusedGraphQL.text();
        const other = await clients(b.key);
        expect(other.status).toBe(200);
        await other.text();
      } finally {
        for (const each of held) each.leave();
      }
      // The clients went away mid-stream: both shares come back.
      await expect.poll(async () => (await clients(a.key)).status, { timeout: 10_000 }).toBe(200);
      const [first, second] = await Promise.all([clients(a.key), graphql(a.key)]);
      expect([first.status, second.status]).toEqual([200, 200]);
    },
  );

  it('gives the share back when a request fails', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const failed = await fetch(
        `${baseUrl}/api/v1/ai-visibility/projects/${a.projectId}/answers?dateFrom=not-a-date`,
        { headers: { authorization: `Bearer ${a.key}` } },
      );
      expect(failed.status).toBe(400);
      await failed.text();
    }
    expect((await clients(a.key)).status).toBe(200);
  });

  it('gives the share back when the client goes away before its answer', async () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const gone = new AbortController();
      const pending = fetch(
        `${baseUrl}/api/v1/ai-visibility/projects/${a.projectId}/answers` +
          '?dateFrom=2026-10-01&dateTo=2026-10-31&limit=100',
        { headers: { authorization: `Bearer ${a.key}` }, signal: gone.signal },
      );
      gone.abort();
      await pending.catch(() => {});
    }
    await expect.poll(async () => (await clients(a.key)).status, { timeout: 10_000 }).toBe(200);
  });
});

describe('the MCP door', () => {
  it('refuses a tool call of the workspace past its cap, and serves it once the held requests end', async () => {
    await personWithPassword(t.database, { email: a.ownerEmail });
    const admin = await signIn(t.app, a.ownerEmail);
    const client = await connectMcp(
      baseUrl,
      new TestOAuthProvider({ cookie: admin.cookie, workspaceId: a.workspaceId }),
    );
    try {
      const held = [await holdExport(), await holdExport()];
      try {
        expect(held.map((each) => each.status)).toEqual([200, 200]);
        await expect(client.callTool({ name: 'list_clients', arguments: {} })).rejects.toThrow(/in flight/);
      } finally {
        for (const each of held) each.leave();
      }
      await expect
        .poll(
          async () =>
            await client.callTool({ name: 'list_clients', arguments: {} }).then(
              (result) => !result.isError,
              () => false,
            ),
          { timeout: 10_000 },
        )
        .toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);
});
