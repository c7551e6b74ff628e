// Worker processes as they run in production (`npm run worker`): killed mid-delivery, and two at once.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { createSecretBox, decodeKey } from '../../src/secrets/secret-box.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { appendEvents } from '../../src/webhooks/outbox.js';
import { OPERATOR } from '../../src/workspaces/actor.js';
import { createKeyedWorkspace } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { TEST_APP_SECRET_KEY } from '../support/secrets.js';
import { startServerProcess } from '../support/processes.js';
import { startReceiver, waitFor, type Receiver } from '../support/webhook-receiver.js';
import { freePort } from '../support/global-setup.js';

const root = path.resolve(import.meta.dirname, '../..');
let url: string;
let database: Database;
const children: ChildProcess[] = [];
const receivers: Receiver[] = [];

async function startWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
  // Node itself with tsx as a loader (not the tsx CLI, which runs the script in a child process
  // that a SIGKILL to the CLI would leave running).
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/webhooks/worker-main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url,
      APP_SECRET_KEY: TEST_APP_SECRET_KEY,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT_SECONDS: '1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('webhook worker started')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
  child.stdout!.resume();
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

async function endpointWithEvents(count: number, answer: Receiver['answer']) {
  const keyed = await createKeyedWorkspace(database);
  const receiver = await startReceiver(answer);
  receivers.push(receiver);
  const box = createSecretBox(decodeKey(TEST_APP_SECRET_KEY)!);
  const endpoint = await createEndpoint(
    { prisma: database.prisma, pool: database.pool, box, policy: { allowHttp: true, allowPrivate: true } },
    { workspaceId: keyed.workspace.id, url: receiver.url, eventTypes: ['scan.completed'], actor: OPERATOR },
  );
  receiver.secrets = [endpoint.secret];
  const client = await database.pool.connect();
  await client.query('BEGIN');
  await appendEvents(
    client,
    Array.from({ length: count }, (_, index) => ({
      workspaceId: keyed.workspace.id,
      type: 'scan.completed' as const,
      data: { index },
    })),
  );
  await client.query('COMMIT');
  client.release();
  const ids = (
    await database.pool.query<{ id: string }>('SELECT id FROM webhook_events WHERE workspace_id = $1', [
      keyed.workspace.id,
    ])
  ).rows.map((row) => row.id);
  return { receiver, endpoint, ids };
}

beforeAll(async () => {
  url = await createTestDatabase();
  database = connectDatabase(url, 3);
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
    await exited(child);
  }
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await database.close();
});

describe('webhook worker processes', () => {
  it('the server runs the worker itself (WEBHOOK_WORKER defaults to true)', async () => {
    const { receiver, ids } = await endpointWithEvents(3, () => ({ status: 200 }));
    const server = await startServerProcess({
      DATABASE_URL: url,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    try {
      await waitFor(
        () => new Set(receiver.received.map((r) => r.id)).size === ids.length,
        'every event from the server process',
        30_000,
      );
      expect(receiver.received.every((r) => r.verifiedBy === 0)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it(
    'a worker killed (SIGKILL) mid-delivery and a fresh one started: every event is delivered, none ' + 'lost',
    async () => {
      let hang = true;
      const answered = new Set<string>();
      const { receiver, endpoint, ids } = await endpointWithEvents(20, (request) => {
        if (hang) return { status: 200, delayMs: 5_000 };
        answered.add(request.id);
        return { status: 200 };
      });
      const first = await startWorker();
      await waitFor(() => receiver.received.length >= 1, 'the first attempt to arrive');
      first.kill('SIGKILL');
      await exited(first);
      hang = false;
      await startWorker();
      await waitFor(() => answered.size === ids.length, 'every event to be delivered', 30_000);
      expect([...answered].sort()).toEqual([...ids].sort());
      expect(receiver.received.every((r) => r.verifiedBy === 0)).toBe(true);
      const statuses = await waitFor(async () => {
        const rows = (
          await database.pool.query(
            'SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status',
            [endpoint.id],
          )
        ).rows;
        return rows.length === 1 && rows[0].status === 'succeeded' ? rows : null;
      }, 'all deliveries to be recorded as succeeded');
      expect(statuses).toEqual([{ status: 'succeeded', n: ids.length }]);
      const lost = (
        await database.pool.query(
          "SELECT count(*)::int AS n FROM webhook_attempts WHERE endpoint_id = $1 AND error LIKE 'the worker stopped%'",
          [endpoint.id],
        )
      ).rows[0].n;
      expect(lost).toBeGreaterThanOrEqual(1);
    },
  );

  it('serves its own /metrics: deliveries by outcome, the outbox, its pool and the process', async () => {
    const { receiver, ids } = await endpointWithEvents(5, () => ({ status: 200 }));
    const port = await freePort();
    await startWorker({ METRICS_PORT: String(port) });
    await waitFor(() => receiver.received.length === ids.length, 'every event', 15_000);
    const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    await waitFor(
      async () => /signalboard_webhook_deliveries_total\{outcome="succeeded"\} 5/.test(await scrape()),
      'the delivery counter',
      5_000,
    );
    const text = await scrape();
    expect(text).toMatch(/signalboard_webhook_outbox_backlog \d+/);
    expect(text).toMatch(/signalboard_webhook_oldest_pending_seconds \d+/);
    expect(text).toMatch(/signalboard_db_pool_connections\{pool="primary",state="idle"\} \d+/);
    expect(text).toContain('signalboard_process_resident_memory_bytes');
    expect(text).not.toContain('signalboard_http_requests_total{');
  });

  it(
    'two workers against one database never send one delivery twice at once, and keep the per-endpoint ' + 'bound',
    async () => {
      const { receiver, ids } = await endpointWithEvents(300, () => ({
        status: 200,
        delayMs: Math.floor(Math.random() * 10),
      }));
      await Promise.all([startWorker(), startWorker()]);
      await waitFor(() => new Set(receiver.received.map((r) => r.id)).size === ids.length, 'every event', 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.maxConcurrentSameId).toBe(1);
      expect(receiver.received).toHaveLength(ids.length);
      expect(receiver.maxConcurrent).toBeLessThanOrEqual(8);
    },
  );
});
