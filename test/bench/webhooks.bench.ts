// npm run bench:webhooks — 10 000 events fanned out by the compiled worker process
// (`npm run worker`) to three loopback receivers, one of which answers after 2 s.
// Phase "steady": events arrive at BENCH_EVENT_RATE per second (ingests committing in small
// transactions); phase "burst": 10 000 more commit at once. Per receiver: deliveries/s and
// event-to-delivery latency (receipt time minus the event's timestamp). Baseline in the same
// run: the same signed POSTs sent straight from this process with the same concurrency, no
// database — the ceiling of the receivers on this machine.
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { connectDatabase } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { createSecretBox, decodeKey } from '../../src/secrets/secret-box.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { appendEvents } from '../../src/webhooks/outbox.js';
import { generateSecret, webhookHeaders } from '../../src/webhooks/signing.js';
import { OPERATOR } from '../../src/workspaces/actor.js';
import { build, buildIsStale } from '../../scripts/start.mjs';
import { BENCH_APP_SECRET_KEY, benchDatabase, root, runBench } from './harness.js';
import { listenOnLoopback } from '../support/loopback.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const RATE = Number(process.env.BENCH_EVENT_RATE ?? 500);
const SLOW_MS = 2_000;
const ENDPOINT_CONCURRENCY = 8;
const VERIFY_EVERY = 50;

interface Receiver {
  name: string;
  url: string;
  secret: string;
  latencies: number[];
  ids: Set<string>;
  firstAt: number;
  lastAt: number;
  inFlight: number;
  maxInFlight: number;
  verifyChecks: number;
  verifyFailures: number;
  reset(): void;
  close(): Promise<void>;
}

async function startReceiver(name: string, delayMs: number): Promise<Receiver> {
  const receiver: Receiver = {
    name,
    url: '',
    secret: '',
    latencies: [],
    ids: new Set(),
    firstAt: 0,
    lastAt: 0,
    inFlight: 0,
    maxInFlight: 0,
    verifyChecks: 0,
    verifyFailures: 0,
    reset() {
      this.latencies = [];
      this.ids = new Set();
      this.firstAt = 0;
      this.lastAt = 0;
    },
    close: async () => {},
  };
  let seen = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    receiver.inFlight++;
    receiver.maxInFlight = Math.max(receiver.maxInFlight, receiver.inFlight);
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const now = Date.now();
      const body = Buffer.concat(chunks).toString();
      const id = String(request.headers['webhook-id']);
      if (++seen % VERIFY_EVERY === 0 && receiver.secret) {
        receiver.verifyChecks++;
        try {
          new Webhook(receiver.secret).verify(body, {
            'webhook-id': id,
            'webhook-timestamp': String(request.headers['webhook-timestamp']),
            'webhook-signature': String(request.headers['webhook-signature']),
          });
        } catch {
          receiver.verifyFailures++;
        }
      }
      if (!receiver.ids.has(id)) {
        receiver.ids.add(id);
        receiver.latencies.push(now - Date.parse((JSON.parse(body) as { timestamp: string }).timestamp));
      }
      receiver.firstAt ||= now;
      receiver.lastAt = now;
      const answer = () => {
        receiver.inFlight--;
        response.writeHead(204).end();
      };
      if (delayMs) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenOnLoopback(server);
  receiver.url = `${listening.baseUrl}/hook`;
  receiver.close = listening.close;
  return receiver;
}

async function startWorker(url: string): Promise<ChildProcess> {
  if (buildIsStale()) build();
  const child = spawn(process.execPath, ['dist/webhooks/worker-main.js'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url,
      APP_SECRET_KEY: BENCH_APP_SECRET_KEY,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_ENDPOINT_CONCURRENCY: String(ENDPOINT_CONCURRENCY),
      WEBHOOK_WORKSPACE_CONCURRENCY: String(3 * ENDPOINT_CONCURRENCY),
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('webhook worker started')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${output}`)));
  });
  child.stdout!.resume();
  return child;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function produce(pool: pg.Pool, workspaceId: string, count: number, perSecond: number) {
  const batch = perSecond > 0 ? Math.max(1, Math.round(perSecond / 10)) : count;
  const started = Date.now();
  for (let sent = 0; sent < count; sent += batch) {
    const client = await pool.connect();
    await client.query('BEGIN');
    await appendEvents(
      client,
      Array.from({ length: Math.min(batch, count - sent) }, (_, index) => ({
        workspaceId,
        type: 'scan.completed' as const,
        data: { index: sent + index, scanId: newId('scan') },
      })),
    );
    await client.query('COMMIT');
    client.release();
    if (perSecond > 0) {
      const due = started + ((sent + batch) / perSecond) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    }
  }
  return started;
}

async function waitUntil(probe: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('the fast receivers did not receive every event in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The same signed POSTs straight to a fast receiver, ENDPOINT_CONCURRENCY at a time. */
async function baseline(receiver: Receiver, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: ENDPOINT_CONCURRENCY });
  const target = new URL(receiver.url);
  const secret = generateSecret();
  let sent = 0;
  const end = Date.now() + seconds * 1000;
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const id = newId('event');
      const body = JSON.stringify({
        type: 'scan.completed',
        timestamp: new Date().toISOString(),
        data: { index: sent, scanId: newId('scan') },
      });
      const request = http.request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            ...webhookHeaders([secret], id, Math.floor(Date.now() / 1000), body),
            'content-length': String(Buffer.byteLength(body)),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve());
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: ENDPOINT_CONCURRENCY }, async () => {
      while (Date.now() < end) {
        await post();
        sent++;
      }
    }),
  );
  agent.destroy();
  return sent / ((Date.now() - started) / 1000);
}

runBench(async () => {
  const cluster = await benchDatabase();
  const database = connectDatabase(cluster.url, 4);
  const box = createSecretBox(decodeKey(BENCH_APP_SECRET_KEY)!);
  const workspace = await database.prisma.workspace.create({
    data: { id: newId('workspace'), slug: `bench-webhooks-${Date.now()}`, name: 'Bench webhooks', plan: 'scale' },
  });
  const receivers = [
    await startReceiver('fast-a', 0),
    await startReceiver('fast-b', 0),
    await startReceiver('slow (2 s)', SLOW_MS),
  ];
  for (const receiver of receivers) {
    const endpoint = await createEndpoint(
      { prisma: database.prisma, pool: database.pool, box, policy: { allowHttp: true, allowPrivate: true } },
      { workspaceId: workspace.id, url: receiver.url, eventTypes: ['scan.completed'], actor: OPERATOR },
    );
    receiver.secret = endpoint.secret;
  }
  const [fastA, fastB, slow] = receivers as [Receiver, Receiver, Receiver];
  const worker = await startWorker(cluster.url);
  const rows: Record<string, string | number>[] = [];
  try {
    for (const [phase, rate] of [
      [`steady ${RATE}/s`, RATE],
      ['burst', 0],
    ] as const) {
      for (const receiver of receivers) receiver.reset();
      const started = await produce(database.pool, workspace.id, EVENTS, rate);
      await waitUntil(() => fastA.ids.size >= EVENTS && fastB.ids.size >= EVENTS, 300_000);
      for (const receiver of receivers) {
        const seconds = ((receiver === slow ? Date.now() : receiver.lastAt) - started) / 1000;
        rows.push({
          phase,
          receiver: receiver.name,
          delivered: receiver.ids.size,
          'deliveries/s': Math.round(receiver.ids.size / seconds),
          'latency p50 ms': Math.round(percentile(receiver.latencies, 50)),
          'latency p99 ms': Math.round(percentile(receiver.latencies, 99)),
          'max in flight': receiver.maxInFlight,
        });
      }
      const fastSeconds = (Math.max(fastA.lastAt, fastB.lastAt) - started) / 1000;
      rows.push({
        phase,
        receiver: 'fast, together',
        delivered: fastA.ids.size + fastB.ids.size,
        'deliveries/s': Math.round((fastA.ids.size + fastB.ids.size) / fastSeconds),
        'latency p50 ms': '',
        'latency p99 ms': '',
        'max in flight': '',
      });
    }
  } finally {
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
  const checks = receivers.reduce((sum, receiver) => sum + receiver.verifyChecks, 0);
  const failures = receivers.reduce((sum, receiver) => sum + receiver.verifyFailures, 0);
  // The baseline signs with its own secret: the receivers stop checking.
  for (const receiver of receivers) receiver.secret = '';
  const direct = await baseline(fastA, 5);
  rows.push({
    phase: 'baseline',
    receiver: 'fast-a, direct POSTs (no database)',
    delivered: '',
    'deliveries/s': Math.round(direct),
    'latency p50 ms': '',
    'latency p99 ms': '',
    'max in flight': ENDPOINT_CONCURRENCY,
  });

  console.log(
    `\nWebhook delivery, ${EVENTS} events per phase to 3 endpoints (${new Date().toISOString().slice(0, 10)}, ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version})`,
  );
  console.table(rows);
  console.log(
    `Signatures checked with standardwebhooks (every ${VERIFY_EVERY}th delivery): ` +
      `${checks} checked, ${failures} failed.`,
  );

  // Leave nothing behind for the slow endpoint: the workspace and its events go.
  await database.pool.query('DELETE FROM webhook_events WHERE workspace_id = $1', [workspace.id]);
  await database.prisma.workspace.delete({ where: { id: workspace.id } });
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await database.close();
  await cluster.stop();
});
