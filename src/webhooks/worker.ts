// The delivery worker: schedules the steps of delivery-steps.ts (fan out, claim, send, record,
// reclaim, retention) in one loop per process, woken by the outbox's NOTIFY and a 1 s poll.
// Several may run against one database (inside `npm start` and as `npm run worker`).
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { claimDue, fanOut, FAN_OUT_BATCH, reclaimExpiredLeases, removeExpiredEvents } from './delivery-steps.js';
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

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
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
  const sender = createSender({ policy, timeoutMs, maxSockets: config.WEBHOOK_ENDPOINT_CONCURRENCY });
  const attemptDeps: AttemptDeps = { ...deps, pool, sender };

  let running = false;
  let stopping = false;
  let ticking: Promise<void> | null = null;
  let tickAgain = false;
  let pollTimer: NodeJS.Timeout | null = null;
  let listener: pg.Client | null = null;
  let lastRetention = 0;
  let lastReclaim = 0;
  let dueLeft = false;
  const inFlight = new Set<Promise<void>>();
  let idleWaiters: (() => void)[] = [];

  function wake() {
    if (!running || stopping) return;
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = tick()
      .catch((error) => logger.error({ err: error }, 'webhook worker step failed'))
      .finally(() => {
        ticking = null;
        if (tickAgain) {
          tickAgain = false;
          wake();
        } else notifyIdle();
      });
  }

  function notifyIdle() {
    if (ticking || inFlight.size || dueLeft) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async function tick() {
    if (Date.now() - lastReclaim >= POLL_MS) {
      lastReclaim = Date.now();
      await reclaimExpiredLeases(pool, leaseSeconds);
    }
    while ((await fanOut(pool)) === FAN_OUT_BATCH && !stopping);
    const free = config.WEBHOOK_CONCURRENCY - inFlight.size;
    dueLeft = false;
    if (free > 0 && !stopping) {
      const claimed = await claimDue(pool, {
        limit: free,
        perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
        perWorkspace: config.WEBHOOK_WORKSPACE_CONCURRENCY,
        leaseSeconds,
      });
      // A full claim may have left due deliveries behind; a partial one left none we could take.
      dueLeft = claimed.length === free;
      for (const delivery of claimed) {
        const attempt = attemptDelivery(attemptDeps, delivery)
          .catch((error) => logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt failed to record'))
          .finally(() => {
            inFlight.delete(attempt);
            wake();
          });
        inFlight.add(attempt);
      }
    }
    if (Date.now() - lastRetention > RETENTION_EVERY_MS) {
      lastRetention = Date.now();
      await removeExpiredEvents(pool, config.WEBHOOK_RETENTION_DAYS, () => stopping);
    }
  }

  async function listen() {
    const client = new pg.Client({
      connectionString: deps.databaseUrl,
      application_name: 'signalboard-webhooks-listen',
    });
    client.on('notification', () => wake());
    client.on('error', (error) => {
      logger.warn({ err: error }, 'webhook worker lost its LISTEN connection; polling until it is back');
      listener = null;
      if (!stopping) setTimeout(() => void listen().catch(() => {}), POLL_MS).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    listener = client;
  }

  return {
    async start() {
      running = true;
      await listen();
      pollTimer = setInterval(wake, POLL_MS);
      wake();
    },
    async stop() {
      stopping = true;
      if (pollTimer) clearInterval(pollTimer);
      await ticking;
      await Promise.allSettled([...inFlight]);
      await listener?.end().catch(() => {});
      sender.close();
      await pool.end();
      running = false;
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        wake();
      });
    },
  };
}
