// The server process draining on SIGTERM, under load: /readyz turns 503 at once, every request
// it accepted is answered, the webhook attempts in flight finish and are recorded once, and the
// process exits 0.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../src/db/client.js';
import { createSecretBox, decodeKey } from '../src/secrets/secret-box.js';
import { createEndpoint } from '../src/webhooks/endpoints.js';
import { appendEvents } from '../src/webhooks/outbox.js';
import { OPERATOR } from '../src/workspaces/actor.js';
import { createKeyedWorkspace } from './support/app.js';
import { createTestDatabase } from './support/database.js';
import { TEST_APP_SECRET_KEY } from './support/secrets.js';
import { startReceiver, waitFor, type Receiver } from './support/webhook-receiver.js';
import { freePort } from './support/global-setup.js';
import { startServerProcess } from './support/processes.js';

let url: string;
let database: Database;
let receiver: Receiver;

beforeAll(async () => {
  url = await createTestDatabase();
  database = connectDatabase(url, 3);
  // Every delivery takes 1.5 s: SIGTERM lands while attempts are in flight.
  receiver = await startReceiver(() => ({ status: 200, delayMs: 1_500 }));
});
afterAll(async () => {
  await receiver?.close();
  await database?.close();
});

describe('SIGTERM', () => {
  const drains =
    'drains: not ready at once, every accepted request answered, ' +
    'attempts in flight finished and recorded once, exit 0';
  it(drains, { timeout: 60_000 }, async () => {
    const keyed = await createKeyedWorkspace(database);
    const box = createSecretBox(decodeKey(TEST_APP_SECRET_KEY)!);
    const endpoint = await createEndpoint(
      { prisma: database.prisma, pool: database.pool, box, policy: { allowHttp: true, allowPrivate: true } },
      { workspaceId: keyed.workspace.id, url: receiver.url, eventTypes: ['scan.completed'], actor: OPERATOR },
    );
    receiver.secrets = [endpoint.secret];
    const metricsPort = await freePort();
    const server = await startServerProcess({
      DATABASE_URL: url,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SHUTDOWN_GRACE_SECONDS: '10',
      RATE_LIMIT_AGENCY: '1000000/100000',
      METRICS_PORT: String(metricsPort),
    });
    const exit = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));

    // Load: 8 keep-alive loops on v1 until told to stop; every answer and every error counted.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const statuses: number[] = [];
    const errors: string[] = [];
    let loading = true;
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.get(
          `${server.baseUrl}${path}`,
          { agent, headers: { authorization: `Bearer ${keyed.key.secret}` } },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          },
        );
        request.on('error', reject);
      });
    const loops = Array.from({ length: 8 }, async () => {
      while (loading) {
        try {
          statuses.push(await get('/api/v1/clients'));
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
    });

    // The load is answered before the attempts start, so the scrape below sees it and SIGTERM
    // still lands within the receiver's 1.5 s.
    await waitFor(() => statuses.length >= 8, 'the load to be answered', 30_000);
    const client = await database.pool.connect();
    await client.query('BEGIN');
    await appendEvents(
      client,
      Array.from({ length: 4 }, (_, index) => ({
        workspaceId: keyed.workspace.id,
        type: 'scan.completed' as const,
        data: { index },
      })),
    );
    await client.query('COMMIT');
    client.release();
    await waitFor(() => receiver.received.length >= 4, 'the four attempts to be in flight');
    const before = statuses.length;

    // A scrape under load, on the metrics port (the service's port has no /metrics).
    const scrape = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(scrape).toMatch(
      /signalboard_http_requests_total\{route="\/api\/v1\/clients",method="GET",status="200"\} \d+/,
    );
    expect(scrape).toMatch(
      /signalboard_http_request_duration_seconds_bucket\{le="0.1",route="\/api\/v1\/clients",method="GET"\} \d+/,
    );
    expect(scrape).toMatch(/signalboard_webhook_outbox_backlog \d+/);
    expect(scrape).toMatch(/signalboard_webhook_deliveries_pending \d+/);
    expect(scrape).toMatch(/signalboard_db_pool_connections\{pool="primary",state="in_use"\} \d+/);
    expect(scrape).toMatch(/signalboard_process_cpu_user_seconds_total \d/);
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);

    server.child.kill('SIGTERM');
    const readyz = await new Promise<{ status: number; body: string }>((resolve, reject) =>
      http
        .get(`${server.baseUrl}/readyz`, { agent: false }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        })
        .on('error', (error) => reject(new Error(`${error.message}\n${server.output().slice(-3000)}`))),
    );
    expect(readyz.status).toBe(503);
    expect(JSON.parse(readyz.body).status).toBe('draining');
    // The load balancer takes the hint within the drain window; the loops stop sending.
    await new Promise((resolve) => setTimeout(resolve, 500));
    loading = false;
    await Promise.all(loops);
    agent.destroy();

    expect(await exit, server.output()).toBe(0);
    expect(statuses.length).toBeGreaterThan(before);
    expect(errors).toEqual([]);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // The four attempts in flight at SIGTERM finished and were recorded as succeeded, once each.
    const deliveries = (
      await database.pool.query<{ status: string; attempt_count: number }>(
        'SELECT status, attempt_count FROM webhook_deliveries WHERE endpoint_id = $1',
        [endpoint.id],
      )
    ).rows;
    expect(deliveries).toHaveLength(4);
    expect(deliveries.every((delivery) => delivery.status === 'succeeded' && delivery.attempt_count === 1)).toBe(true);
    expect(new Set(receiver.received.map((entry) => entry.id)).size).toBe(4);
    expect(receiver.received).toHaveLength(4);
    expect(server.output()).toMatch(/"msg":"stopped"/);
  });
});

describe('stdout', () => {
  // Log collectors read stdout as JSON lines: oidc-provider prints its notices and warnings with
  // console.* (a raw "already parsed request body detected" line on the first OAuth POST), and
  // the start-up banner with the demo secrets is for the terminal (stderr).
  it("is JSON lines only, the OAuth server's warnings included", async () => {
    const server = await startServerProcess({ DATABASE_URL: url });
    try {
      const token = await fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&code=nope&client_id=nobody',
      });
      expect(token.status).toBeGreaterThanOrEqual(400);
      await fetch(`${server.baseUrl}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=nope&client_id=nobody',
      });
    } finally {
      await server.stop();
    }
    const lines = server.stdout().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(2);
    expect(
      lines.filter((line) => {
        try {
          JSON.parse(line);
          return false;
        } catch {
          return true;
        }
      }),
    ).toEqual([]);
    expect(
      lines
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.source === 'console')
        .map((entry) => entry.msg),
    ).toEqual([expect.stringContaining('oidc-provider WARNING: already parsed request body detected')]);
  }, 60_000);
});
