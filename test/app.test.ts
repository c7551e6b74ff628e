// A client that goes away before its answer (a closed tab, a cut non-reader) is not a server
// error: it is recorded as 499 at info, not as a 500 "unhandled error" that pages someone.
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from './support/app.js';
import { listen } from './support/listen.js';

const logged: { level: number; msg: string; status?: number; path?: string }[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({ write: (chunk, _encoding, done) => (logged.push(JSON.parse(String(chunk))), done()) }),
);

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let key: string;

beforeAll(async () => {
  t = await createTestApp({}, { logger });
  server = await listen(t.app);
  key = (await createKeyedWorkspace(t.database)).key.secret;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('a client that closes its connection before the answer', () => {
  it('is logged as 499 at info, never as a 500 error', async () => {
    const { hostname, port } = new URL(server.baseUrl);
    // Half a body, then the client goes away: the app's read of the body fails with the abort.
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"{ __typename',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    await expect
      .poll(() => logged.find((line) => line.msg === 'request' && line.path === '/graphql'), { timeout: 10_000 })
      .toBeTruthy();
    const request = logged.find((line) => line.msg === 'request' && line.path === '/graphql')!;
    expect(request.status).toBe(499);
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe('ingestion on an instance without INGEST_TOKEN', () => {
  it('is a 404 that says why, so an operator is not left guessing', async () => {
    const response = await t.app.fetch(
      new Request('http://test.local/internal/ingest/scans', { method: 'POST', body: '{}' }),
    );
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toMatch(/INGEST_TOKEN/);
  });
});

describe('/favicon.ico', () => {
  it('is the service icon, which browsers ask every origin for', async () => {
    const response = await t.app.fetch(new Request('http://test.local/favicon.ico'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/x-icon');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
