// Issue 7, faults: the database (or Redis) goes away under load and comes back. Requests
// answer 503 `unavailable` quickly instead of hanging or crashing, /readyz fails, and the
// service recovers by itself once the dependency returns.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { redisRateLimitStore } from '../src/auth/rate-limit-store.js';
import { freePort } from './support/global-setup.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from './support/app.js';
import { redisAvailable, startRedis } from './support/processes.js';

interface Outcome {
  status: number;
  ms: number;
  code?: string;
}

async function timed(t: TestApp, path: string, key?: string): Promise<Outcome> {
  const started = performance.now();
  const response = await t.get(path, key);
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, ms: performance.now() - started, ...(body.error ? { code: body.error.code } : {}) };
}

/** Keeps `concurrency` request loops busy until stopped; returns every outcome. */
function keepLoading(t: TestApp, key: string, concurrency = 6) {
  const outcomes: Outcome[] = [];
  let running = true;
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      outcomes.push(await timed(t, '/api/v1/clients', key));
      // A refusal that needs no I/O resolves in microtasks alone; let timers run.
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  return { outcomes, stop: async () => ((running = false), await Promise.all(loops)) };
}

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (ok(await probe())) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not within ${timeoutMs} ms`);
}

describe('PostgreSQL goes away under load', () => {
  let dir: string;
  let port: number;
  let database: EmbeddedDatabase;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'signalboard-fault-pg-'));
    chmodSync(dir, 0o755);
    port = await freePort();
    database = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port, database: 'faults' });
    await migrate(database.url);
    t = await createTestApp({ RATE_LIMIT_AGENCY: '1000000/1000000' }, { url: database.url });
    key = (await createKeyedWorkspace(t.database)).key.secret;
  }, 60_000);

  afterAll(async () => {
    await t.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 within 2 s while it is down, fails /readyz, and recovers within 5 s of its return', async () => {
    const load = keepLoading(t, key);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stoppedAt = load.outcomes.length;
    await database.stop();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);

    database = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port, database: 'faults' });
    const recoveredIn = await until(
      () => timed(t, '/api/v1/clients', key),
      (outcome) => outcome.status === 200,
      5_000,
    );
    await load.stop();

    const duringOutage = load.outcomes.slice(stoppedAt);
    expect(duringOutage.some((outcome) => outcome.status === 503 && outcome.code === 'unavailable')).toBe(true);
    expect(duringOutage.filter((outcome) => outcome.status !== 200 && outcome.status !== 503)).toEqual([]);
    expect(Math.max(...duringOutage.map((outcome) => outcome.ms))).toBeLessThan(2_000);
    expect(recoveredIn).toBeLessThan(5_000);
    expect((await t.get('/readyz')).status).toBe(200);
  }, 60_000);
});

describe.skipIf(!redisAvailable())('Redis goes away', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let port: string;

  beforeAll(async () => {
    redis = await startRedis();
    port = new URL(redis.url).port;
  });
  afterAll(() => redis.stop());

  async function appWith(failOpen: boolean) {
    const client = new Redis(redis.url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 1_000,
      retryStrategy: () => 200,
    });
    client.on('error', () => {});
    const t = await createTestApp({ RATE_LIMIT_FAIL_OPEN: String(failOpen) }, { store: redisRateLimitStore(client) });
    const key = (await createKeyedWorkspace(t.database)).key.secret;
    return { t, key, client };
  }

  it('fails closed by default (503 unavailable) and open when configured, then recovers', async () => {
    const closed = await appWith(false);
    const open = await appWith(true);
    expect((await timed(closed.t, '/api/v1/clients', closed.key)).status).toBe(200);

    await redis.stop();
    await until(
      () => timed(closed.t, '/api/v1/clients', closed.key),
      (o) => o.status === 503,
      3_000,
    );
    const refused = await timed(closed.t, '/api/v1/clients', closed.key);
    expect(refused).toMatchObject({ status: 503, code: 'unavailable' });
    expect(refused.ms).toBeLessThan(2_000);
    const served = await timed(open.t, '/api/v1/clients', open.key);
    expect(served.status).toBe(200);

    redis = await startRedis(Number(port));
    const recoveredIn = await until(
      () => timed(closed.t, '/api/v1/clients', closed.key),
      (o) => o.status === 200,
      5_000,
    );
    expect(recoveredIn).toBeLessThan(5_000);
    for (const app of [closed, open]) {
      app.client.disconnect();
      await app.t.close();
    }
  }, 30_000);
});
