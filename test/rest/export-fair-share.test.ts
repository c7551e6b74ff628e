// Fair shares of the export pool and clients that stop reading, through a listening server and
// a real database: a workspace holding exports is refused past its share (429) while another
// workspace's export streams; a full instance answers 503; a reader that takes no bytes is cut
// and its PostgreSQL transaction ends; a big answer nobody reads is cut too, after the stall time
// or at once when the unsent bytes of such clients pass the instance's budget.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '../../src/auth/key-management.js';
import { EXPORT_APPLICATION_NAME } from '../../src/db/client.js';
import { createNodeServer } from '../../src/doors/node-server.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { listenOnLoopback } from '../support/loopback.js';
import { createProject, ONE_SERIES_PROJECT } from '../support/projects.js';

/** Each export's call for a share, as it is made: whether it has returned yet. */
const takes = vi.hoisted(() => [] as { settled: boolean }[]);
vi.mock('../../src/rest/export-slots.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/rest/export-slots.js')>();
  return {
    ...original,
    createExportSlots(shares: Parameters<typeof original.createExportSlots>[0]) {
      const slots = original.createExportSlots(shares);
      const take: typeof slots.take = (workspaceId, keyId) => {
        const call = { settled: false };
        takes.push(call);
        return slots.take(workspaceId, keyId).finally(() => (call.settled = true));
      };
      return { ...slots, take };
    },
  };
});

const TOKEN = 'f'.repeat(40);
/**
 * Answers per project and the length of each text: far more than socket buffers take, so an export
 * that is not read stays open.
 */
const ANSWERS = 3_000;
const TEXT = 'x'.repeat(4_000);

interface Tenant {
  projectId: string;
  keys: string[];
}

let url: string;
let a: Tenant;
let b: Tenant;
let c: Tenant;
/** Answers whose one JSON page (16 MB) is more than socket buffers take. */
let big: Tenant;
const BIG_ANSWERS = 400;
const BIG_TEXT = 'y'.repeat(40_000);

async function tenant(t: TestApp, keys: number, answers: number, text = TEXT): Promise<Tenant> {
  const keyed = await createKeyedWorkspace(t.database, { plan: 'scale' });
  const more = await Promise.all(
    Array.from({ length: keys - 1 }, (_, index) =>
      createApiKey(t.database.prisma, {
        workspaceId: keyed.workspace.id,
        name: `more ${index}`,
        actor: { email: keyed.ownerEmail },
      }),
    ),
  );
  const project = await createProject(t.database, keyed.workspace.id, ONE_SERIES_PROJECT);
  const days = Math.ceil(answers / 1_000);
  const lines = Array.from({ length: days }, (_, day) => ({
    project: project.id,
    date: `2026-10-0${day + 1}`,
    model: 'chatgpt',
    locale: 'en-US',
    runs: Array.from({ length: Math.min(1_000, answers - day * 1_000) }, (_, index) => ({
      prompt: `prompt ${index}`,
      answer: `${index} ${text}`,
      brandMentions: 0,
      totalMentions: 0,
      position: null,
      sentiment: null,
      citations: [],
    })),
  }));
  if (answers) {
    const response = await t.app.fetch(
      new Request('http://test.local/internal/ingest/scans', {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: lines.map((line) => JSON.stringify(line)).join('\n'),
      }),
    );
    expect(response.status).toBe(200);
  }
  return { projectId: project.id, keys: [keyed.key.secret, ...more.map((key) => key.secret)] };
}

/** Serves `env`'s app on loopback, keeping the server to count its connections. */
async function serve(env: Record<string, string>) {
  const t = await createTestApp({ INGEST_TOKEN: TOKEN, EXPORT_POOL_SIZE: '4', ...env }, { url });
  const server = createNodeServer(t.app);
  const served = await listenOnLoopback(server);
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  return {
    t,
    baseUrl: served.baseUrl,
    connections,
    closeIdleConnections: () => server.closeIdleConnections(),
    close: async () => (await served.close(), await t.close()),
  };
}

const exportPath = (who: Tenant) =>
  `/api/v1/ai-visibility/projects/${who.projectId}/answers?dateFrom=2026-10-01&dateTo=2026-10-31`;

/** `who`'s whole export as NDJSON, asked with its first key. */
const ndjsonExport = (baseUrl: string, who: Tenant) =>
  fetch(`${baseUrl}${exportPath(who)}`, {
    headers: { authorization: `Bearer ${who.keys[0]}`, accept: 'application/x-ndjson' },
  });

/** The lines of an NDJSON body: one per exported row. */
const bodyLines = async (response: Response) => (await response.text()).trimEnd().split('\n');

interface Held {
  status: number;
  headers: IncomingMessage['headers'];
  /** The whole body of a refusal; the first chunk of a stream, which is then left unread. */
  body: string;
  /** Reads on to the end: the bytes that arrived and whether the response was complete. */
  readRest(): Promise<{ bytes: number; complete: boolean }>;
  release(): void;
}

/** An export whose client reads its first chunk and then stops reading (the socket stays open). */
function hold(baseUrl: string, key: string, path: string, accept = 'text/csv'): Promise<Held> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}`, accept } });
    req.on('error', () => {});
    req.on('response', (res) => {
      const readRest = () =>
        new Promise<{ bytes: number; complete: boolean }>((done) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.once('error', () => {});
          res.once('close', () => done({ bytes, complete: res.complete }));
          res.resume();
        });
      const answer = (body: string) =>
        resolve({ status: res.statusCode!, headers: res.headers, body, readRest, release: () => req.destroy() });
      if (res.statusCode !== 200) {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (body += chunk))
          .on('end', () => answer(body));
        return;
      }
      res.once('data', (chunk: Buffer) => {
        res.pause();
        answer(chunk.toString('utf8'));
      });
    });
    req.once('error', reject);
    req.end();
  });
}

/** Export transactions open in PostgreSQL (the pool's idle connections excluded). */
async function openExports(t: TestApp): Promise<number> {
  const { rows } = await t.database.pool.query(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ' +
      "current_database() AND application_name = $1 AND state <> 'idle'",
    [EXPORT_APPLICATION_NAME],
  );
  return rows[0].n;
}

beforeAll(async () => {
  url = await createTestDatabase();
  const t = await createTestApp({ INGEST_TOKEN: TOKEN }, { url });
  try {
    a = await tenant(t, 3, ANSWERS);
    b = await tenant(t, 2, ANSWERS);
    c = await tenant(t, 1, 0);
    big = await tenant(t, 1, BIG_ANSWERS, BIG_TEXT);
  } finally {
    await t.close();
  }
});

describe('shares of the export pool (4 connections: 2 per workspace, 1 per key)', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    // Nobody is cut for stalling here: the shares alone must keep the pool fair.
    server = await serve({ RESPONSE_STALL_SECONDS: '600', EXPORT_IDLE_SECONDS: '900' });
  });
  afterAll(() => server.close());

  it('refuses a workspace past its share with 429 and Retry-After, while another workspace exports', async () => {
    const held: Held[] = [];
    try {
      held.push(await hold(server.baseUrl, a.keys[0]!, exportPath(a)));
      expect(held[0]!.status).toBe(200);
      const sameKey = await hold(server.baseUrl, a.keys[0]!, exportPath(a));
      expect(sameKey.status).toBe(429);
      expect(sameKey.headers['retry-after']).toBe('5');
      expect(JSON.parse(sameKey.body).error).toMatchObject({
        code: 'rate_limited',
        message: expect.stringContaining('This API key'),
        requestId: expect.any(String),
      });
      held.push(await hold(server.baseUrl, a.keys[1]!, exportPath(a)));
      expect(held[1]!.status).toBe(200);
      const thirdKey = await hold(server.baseUrl, a.keys[2]!, exportPath(a));
      expect([thirdKey.status, thirdKey.headers['retry-after'], JSON.parse(thirdKey.body).error.code]).toEqual([
        429,
        '5',
        'rate_limited',
      ]);
      expect(JSON.parse(thirdKey.body).error.message).toContain('This workspace');
      // Both of A's exports are still open in the database while B's streams to the end.
      expect(await openExports(server.t)).toBe(2);
      const other = await ndjsonExport(server.baseUrl, b);
      expect(other.status).toBe(200);
      expect(await bodyLines(other)).toHaveLength(ANSWERS);
    } finally {
      for (const each of held) each.release();
    }
    await expect.poll(() => openExports(server.t), { timeout: 10_000 }).toBe(0);
  });

  it('has an export over its share wait a moment for one to free instead of refusing it at once', async () => {
    const held = await hold(server.baseUrl, a.keys[0]!, exportPath(a));
    expect(held.status).toBe(200);
    const before = takes.length;
    const next = ndjsonExport(server.baseUrl, a);
    // The second request reaches its (taken) share and waits there; only then is the share freed.
    await expect.poll(() => takes.length).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(takes.at(-1)!.settled).toBe(false);
    held.release();
    const response = await next;
    expect(response.status).toBe(200);
    expect(await bodyLines(response)).toHaveLength(ANSWERS);
  });

  it('gives the share back when the client of an export waiting for it leaves before the answer', async () => {
    const held = await hold(server.baseUrl, a.keys[0]!, exportPath(a));
    expect(held.status).toBe(200);
    const before = takes.length;
    const waiting = httpRequest(`${server.baseUrl}${exportPath(a)}`, {
      headers: { authorization: `Bearer ${a.keys[0]}`, accept: 'text/csv' },
    });
    waiting.on('error', () => {});
    waiting.end();
    await expect.poll(() => takes.length).toBe(before + 1);
    // Its client goes away while it waits; then the share frees and passes to it.
    waiting.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    held.release();
    // Nobody takes the stream it would answer: its cursor is not left open, and the key can export again.
    await expect.poll(() => openExports(server.t), { timeout: 5_000 }).toBe(0);
    const again = await ndjsonExport(server.baseUrl, a);
    expect(again.status).toBe(200);
    expect(await bodyLines(again)).toHaveLength(ANSWERS);
  });

  it('reads rows of large answers about 1 MiB at a time, not 200 rows (8 MB) at a time', async () => {
    const queries = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const response = await ndjsonExport(server.baseUrl, big);
      expect(await bodyLines(response)).toHaveLength(BIG_ANSWERS);
      const fetched = queries.mock.calls
        .map(([text]) => (typeof text === 'string' ? /^FETCH (\d+)/.exec(text)?.[1] : undefined))
        .filter(Boolean)
        .map(Number);
      expect(fetched.reduce((sum, rows) => sum + rows, 0)).toBeGreaterThanOrEqual(BIG_ANSWERS);
      // 40 000-character answers: about 26 rows make 1 MiB.
      expect(Math.max(...fetched)).toBeLessThanOrEqual(Math.ceil((1024 * 1024) / BIG_TEXT.length) + 1);
    } finally {
      queries.mockRestore();
    }
  });

  it('answers 503 with Retry-After when every export connection of the instance streams', async () => {
    const held = [
      await hold(server.baseUrl, a.keys[0]!, exportPath(a)),
      await hold(server.baseUrl, a.keys[1]!, exportPath(a)),
      await hold(server.baseUrl, b.keys[0]!, exportPath(b)),
      await hold(server.baseUrl, b.keys[1]!, exportPath(b)),
    ];
    try {
      expect(held.map((each) => each.status)).toEqual([200, 200, 200, 200]);
      const full = await hold(server.baseUrl, c.keys[0]!, exportPath(c));
      expect([full.status, full.headers['retry-after'], JSON.parse(full.body).error.code]).toEqual([
        503,
        '5',
        'unavailable',
      ]);
    } finally {
      for (const each of held) each.release();
    }
    await expect.poll(() => openExports(server.t), { timeout: 10_000 }).toBe(0);
    // The shares came back with the connections.
    const after = await fetch(`${server.baseUrl}${exportPath(c)}`, {
      headers: { authorization: `Bearer ${c.keys[0]}`, accept: 'text/csv' },
    });
    expect(after.status).toBe(200);
    await after.text();
  });
});

describe('clients that stop reading (cut after 1 s without progress)', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve({ RESPONSE_STALL_SECONDS: '1', EXPORT_IDLE_SECONDS: '900' });
  });
  afterAll(() => server.close());

  it('cuts an export whose reader stopped: its transaction ends and its share comes back', async () => {
    const held = await hold(server.baseUrl, a.keys[0]!, exportPath(a));
    try {
      expect(held.status).toBe(200);
      expect(held.body.startsWith('id,projectId,')).toBe(true);
      await expect.poll(() => openExports(server.t), { timeout: 10_000 }).toBe(0);
      expect(await server.connections()).toBe(0);
      expect((await held.readRest()).complete).toBe(false);
      const again = await ndjsonExport(server.baseUrl, a);
      expect(again.status).toBe(200);
      expect(await bodyLines(again)).toHaveLength(ANSWERS);
    } finally {
      held.release();
    }
  });

  it('cuts the connection of a large JSON answer nobody reads', () => unreadAnswerIsCut(server));
});

describe('clients that stop reading, many at once (the instance holds at most 1 MiB for them)', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    // No stall cut in this test's time: only the instance's budget of unsent bytes can cut.
    server = await serve({
      RESPONSE_STALL_SECONDS: '600',
      EXPORT_IDLE_SECONDS: '900',
      RESPONSE_UNSENT_MAX_BYTES: String(1024 * 1024),
    });
  });
  afterAll(() => server.close());

  it('cuts a large answer nobody reads once the unsent bytes pass the budget, before its stall time', () =>
    unreadAnswerIsCut(server));
});

describe("one workspace's clients that stop reading (it holds at most 24 MiB of the instance's 512)", () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve({
      RESPONSE_STALL_SECONDS: '600',
      EXPORT_IDLE_SECONDS: '900',
      RESPONSE_UNSENT_MAX_BYTES: String(512 * 1024 * 1024),
      RESPONSE_UNSENT_WORKSPACE_MAX_BYTES: String(24 * 1024 * 1024),
    });
  });
  afterAll(() => server.close());

  it(
    'cuts one of two unread 16 MB answers of the same ' + 'workspace, though each alone fits, and keeps the other',
    async () => {
      server.closeIdleConnections();
      await expect.poll(server.connections, { timeout: 10_000 }).toBe(0);
      const path = bigAnswersPath();
      const sockets = await Promise.all(
        [0, 1].map(async () => {
          const socket = connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
          await new Promise<void>((resolve) => socket.once('connect', resolve));
          socket.on('error', () => {});
          socket.pause();
          socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${big.keys[0]}\r\n\r\n`);
          return socket;
        }),
      );
      try {
        await expect.poll(server.connections, { timeout: 10_000 }).toBe(2);
        // The workspace's two answers together pass its bound: the sweep cuts one.
        await expect.poll(server.connections, { timeout: 15_000 }).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        expect(await server.connections()).toBe(1);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    },
  );
});

/** The 16 MB JSON answer of the big project. */
const bigAnswersPath = () =>
  `/api/v1/ai-visibility/projects/${big.projectId}/answers?dateFrom=2026-10-01&dateTo=2026-10-31&limit=500`;

/** A 16 MB JSON answer requested on a raw socket that is never read: the server must close the connection. */
async function unreadAnswerIsCut(server: Awaited<ReturnType<typeof serve>>) {
  const path = bigAnswersPath();
  // Earlier tests' keep-alive connections go first: the only connection left is this one.
  server.closeIdleConnections();
  await expect.poll(server.connections, { timeout: 10_000 }).toBe(0);
  const socket = connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${big.keys[0]}\r\n\r\n`);
  try {
    await expect.poll(server.connections, { timeout: 10_000 }).toBe(0);
    // Read what had reached the client: less than the whole answer, then the end.
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    await closed;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(BIG_ANSWERS * BIG_TEXT.length);
  } finally {
    socket.destroy();
  }
}
