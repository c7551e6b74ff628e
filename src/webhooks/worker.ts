// The delivery worker: schedules the steps of delivery-steps.ts (fan out, claim, send, record,
// reclaim, retention) in one loop per process, woken by the outbox's NOTIFY and a 1 s poll.
// Several may run against one database (inside `npm start` and as `npm run worker`).
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { SecretBox } from '../secrets/secret-box.js';
import {
  claimDue,
  fanOut,
  FAN_OUT_BATCH,
  reclaimExpiredLeases,
  removeExpiredEvents,
  type Claimed,
} from './delivery-steps.js';
import { OUTBOX_CHANNEL } from './outbox.js';
import type { AttemptOutcome } from './retry-schedule.js';
import { createSender } from './sender.js';
import { attemptDelivery, type AttemptDeps } from './attempt.js';

export type WorkerConfig = Pick<
  Config,
  | 'WEBHOOK_ALLOW_HTTP'
  | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'
  | 'WEBHOOK_RETRY_SCHEDULE'
  | 'WEBHOOK_TIMEOUT_SECONDS'
  | 'WEBHOOK_CONCURRENCY'
  | 'WEBHOOK_ENDPOINT_CONCURRENCY'
  | 'WEBHOOK_WORKSPACE_CONCURRENCY'
  | 'WEBHOOK_RETENTION_DAYS'
>;

export interface DeliveryWorkerDeps {
  databaseUrl: string;
  prisma: PrismaClient;
  box: SecretBox;
  config: WorkerConfig;
  logger: Logger;
  /** Each attempt's outcome, for the metrics. */
  onOutcome?(outcome: AttemptOutcome['kind']): void;
}

export interface DeliveryWorker {
  start(): Promise<void>;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
  /** Resolves when nothing is due and nothing is in flight (tests and the benchmark). */
  idle(): Promise<void>;
}

export { DISABLE_AFTER_FAILING_MS } from './attempt.js';
const POLL_MS = 1_000;
const RETENTION_EVERY_MS = 10 * 60_000;
// Between the attempt's timeout and the lease's end: time to write the outcome.
const MAX_LEASE_MARGIN_SECONDS = 10;

/** The worker's connections and sender, and how long a claimed delivery stays leased. */
function workerParts(deps: DeliveryWorkerDeps) {
  const { config, logger } = deps;
  // No idle timeout, like the API's pools (db/client.ts): see docs/decisions/request-path-allocations.md.
  const pool = new pg.Pool({
    connectionString: deps.databaseUrl,
    max: 6,
    application_name: 'signalboard-webhooks',
    idleTimeoutMillis: 0,
  });
  pool.on('error', (error) => logger.warn({ err: error }, 'webhook worker pool error'));
  const policy = { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS };
  const timeoutMs = config.WEBHOOK_TIMEOUT_SECONDS * 1000;
  const leaseSeconds =
    config.WEBHOOK_TIMEOUT_SECONDS + Math.min(MAX_LEASE_MARGIN_SECONDS, config.WEBHOOK_TIMEOUT_SECONDS);
  // Node's agent caps sockets per host and port, across every endpoint and workspace there: at the endpoint's
  // share, one workspace's hanging receiver made another's endpoint on the same host wait for a socket. The
  // claim bounds each endpoint and workspace; the agent only the worker's own slots, so no attempt ever queues.
  const sender = createSender({ policy, timeoutMs, maxSockets: config.WEBHOOK_CONCURRENCY });
  return { pool, sender, leaseSeconds };
}

/** A LISTEN connection on the outbox's channel that wakes the worker; lost, it is made again after a poll. */
function outboxListener(deps: DeliveryWorkerDeps, wake: () => void, stopping: () => boolean) {
  let listener: pg.Client | null = null;
  async function listen() {
    const client = new pg.Client({
      connectionString: deps.databaseUrl,
      application_name: 'signalboard-webhooks-listen',
    });
    client.on('notification', () => wake());
    client.on('error', (error) => {
      deps.logger.warn({ err: error }, 'webhook worker lost its LISTEN connection; polling until it is back');
      listener = null;
      if (!stopping()) setTimeout(() => void listen().catch(() => {}), POLL_MS).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    listener = client;
  }
  return { start: listen, end: async (): Promise<void> => listener?.end().catch(() => {}) };
}

/** `step`, run when at least `ms` have passed since it last ran. */
function every(ms: number, step: () => Promise<unknown>) {
  let last = 0;
  return async () => {
    if (Date.now() - last < ms) return;
    last = Date.now();
    await step();
  };
}

/** Due deliveries for the free slots, within the per-endpoint and per-workspace bounds, leased to this worker. */
const claimFor = (pool: pg.Pool, config: WorkerConfig, leaseSeconds: number, free: number) =>
  claimDue(pool, {
    limit: free,
    perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    perWorkspace: config.WEBHOOK_WORKSPACE_CONCURRENCY,
    leaseSeconds,
  });

/**
 * Runs `step` one at a time: a call while it runs makes it run once more afterwards; `settled`
 * when a run ends with no call pending.
 */
function oneAtATime(step: () => Promise<void>, failed: (error: unknown) => void, settled: () => void) {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = step()
      .catch(failed)
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        } else settled();
      });
  };
  return { run, current: () => running };
}

/** Promises that resolve together when released. */
function waiters() {
  let pending: (() => void)[] = [];
  return {
    wait: () => new Promise<void>((resolve) => pending.push(resolve)),
    release() {
      const released = pending;
      pending = [];
      for (const resolve of released) resolve();
    },
  };
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { config, logger } = deps;
  const { pool, sender, leaseSeconds } = workerParts(deps);
  const attemptDeps: AttemptDeps = { ...deps, pool, sender };

  let running = false;
  let stopping = false;
  let pollTimer: NodeJS.Timeout | null = null;
  const listener = outboxListener(deps, wake, () => stopping);
  let dueLeft = false;
  const inFlight = new Set<Promise<void>>();
  const idle = waiters();
  const ticks = oneAtATime(
    () => tick(),
    (error) => logger.error({ err: error }, 'webhook worker step failed'),
    () => {
      if (!inFlight.size && !dueLeft) idle.release();
    },
  );
  function wake() {
    if (running && !stopping) ticks.run();
  }

  const reclaim = every(POLL_MS, () => reclaimExpiredLeases(pool, leaseSeconds));
  const retain = every(RETENTION_EVERY_MS, () =>
    removeExpiredEvents(pool, config.WEBHOOK_RETENTION_DAYS, () => stopping),
  );

  function startAttempt(delivery: Claimed) {
    const attempt = attemptDelivery(attemptDeps, delivery)
      .catch((error) => logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt failed to record'))
      .finally(() => {
        inFlight.delete(attempt);
        wake();
      });
    inFlight.add(attempt);
  }

  async function tick() {
    await reclaim();
    while ((await fanOut(pool)) === FAN_OUT_BATCH && !stopping);
    const free = config.WEBHOOK_CONCURRENCY - inFlight.size;
    const claimed = free > 0 && !stopping ? await claimFor(pool, config, leaseSeconds, free) : [];
    // A full claim may have left due deliveries behind; a partial one left none we could take.
    dueLeft = free > 0 && claimed.length === free;
    for (const delivery of claimed) startAttempt(delivery);
    await retain();
  }

  return {
    async start() {
      running = true;
      await listener.start();
      pollTimer = setInterval(wake, POLL_MS);
      wake();
    },
    async stop() {
      stopping = true;
      if (pollTimer) clearInterval(pollTimer);
      await ticks.current();
      await Promise.allSettled([...inFlight]);
      await listener.end();
      sender.close();
      await pool.end();
      running = false;
    },
    idle() {
      const idled = idle.wait();
      wake();
      return idled;
    },
  };
}
