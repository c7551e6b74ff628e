// The delivery worker. Several may run against one database (inside `npm start` and as
// `npm run worker`); PostgreSQL is the only coordination:
// - fan-out: undispatched events are claimed with FOR UPDATE SKIP LOCKED and turned into one
//   delivery per subscribed endpoint, in one statement;
// - claim: due deliveries are leased (status 'delivering', locked_until) under a short
//   transaction-scoped advisory lock, so the per-endpoint in-flight bound holds over all
//   workers and no delivery is claimed twice; a worker that dies mid-attempt leaves a lease
//   that expires after the attempt timeout, and the delivery is sent again with the same id;
// - record: the outcome is written only while the lease is still ours (attempt_count fences).
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import { recordAudit } from '../audit/audit-log.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { applyEnabled, secretContext, WEBHOOK_PLANS } from './endpoints.js';
import { OUTBOX_CHANNEL } from './outbox.js';
import { attemptOutcome, type AttemptOutcome } from './retry-schedule.js';
import { createSender, type AttemptResult } from './sender.js';
import { webhookHeaders } from './signing.js';

export type WorkerConfig = Pick<
  Config,
  | 'WEBHOOK_ALLOW_HTTP'
  | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'
  | 'WEBHOOK_RETRY_SCHEDULE'
  | 'WEBHOOK_TIMEOUT_SECONDS'
  | 'WEBHOOK_CONCURRENCY'
  | 'WEBHOOK_ENDPOINT_CONCURRENCY'
  | 'WEBHOOK_RETENTION_DAYS'
>;

export interface DeliveryWorkerDeps {
  databaseUrl: string;
  prisma: PrismaClient;
  box: SecretBox;
  config: WorkerConfig;
  logger: Logger;
}

export interface DeliveryWorker {
  start(): Promise<void>;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
  /** Resolves when nothing is due and nothing is in flight (tests and the benchmark). */
  idle(): Promise<void>;
}

/** An endpoint failing every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;
const POLL_MS = 1_000;
const FAN_OUT_BATCH = 1_000;
const RETENTION_EVERY_MS = 10 * 60_000;
const RETENTION_BATCH = 5_000;
// Between the attempt's timeout and the lease's end: time to write the outcome.
const MAX_LEASE_MARGIN_SECONDS = 10;
const CLAIM_LOCK_KEY = 0x5b0a4d; // pg_advisory_xact_lock key of the claim step

interface Claimed {
  id: string;
  event_id: string;
  endpoint_id: string;
  workspace_id: string;
  attempt_count: number;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { config, logger } = deps;
  const pool = new pg.Pool({ connectionString: deps.databaseUrl, max: 6, application_name: 'signalboard-webhooks' });
  pool.on('error', (error) => logger.warn({ err: error }, 'webhook worker pool error'));
  const policy = { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS };
  const timeoutMs = config.WEBHOOK_TIMEOUT_SECONDS * 1000;
  const leaseSeconds = config.WEBHOOK_TIMEOUT_SECONDS + Math.min(MAX_LEASE_MARGIN_SECONDS, config.WEBHOOK_TIMEOUT_SECONDS);
  const sender = createSender({ policy, timeoutMs, maxSockets: config.WEBHOOK_ENDPOINT_CONCURRENCY });

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
      await reclaimExpiredLeases();
    }
    while ((await fanOut()) === FAN_OUT_BATCH && !stopping);
    const free = config.WEBHOOK_CONCURRENCY - inFlight.size;
    dueLeft = false;
    if (free > 0 && !stopping) {
      const claimed = await claim(free);
      // A full claim may have left due deliveries behind; a partial one left none we could take.
      dueLeft = claimed.length === free;
      for (const delivery of claimed) {
        const attempt = deliver(delivery)
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
      await removeExpired();
    }
  }

  async function fanOut(): Promise<number> {
    const result = await pool.query<{ events: string }>(
      `WITH due AS (
         SELECT id, workspace_id, type, created_at FROM webhook_events
         WHERE dispatched_at IS NULL ORDER BY created_at LIMIT ${FAN_OUT_BATCH} FOR UPDATE SKIP LOCKED
       ), fanned AS (
         INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
         SELECT new_id('whd'), due.id, ep.id, 'pending', now()
         FROM due
         JOIN workspaces w ON w.id = due.workspace_id AND w.plan::text = ANY($1::text[])
         JOIN webhook_endpoints ep ON ep.workspace_id = due.workspace_id AND ep.enabled AND due.type = ANY(ep.event_types) AND ep.enabled_at <= due.created_at
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING 1
       ), marked AS (
         UPDATE webhook_events e SET dispatched_at = now() FROM due WHERE e.id = due.id RETURNING 1
       )
       SELECT (SELECT count(*) FROM marked) AS events, (SELECT count(*) FROM fanned) AS deliveries`,
      [WEBHOOK_PLANS],
    );
    return Number(result.rows[0]!.events);
  }

  /** Leases left by a worker that stopped mid-attempt: recorded as such and made due again. */
  async function reclaimExpiredLeases() {
    await pool.query(
      `WITH expired AS (
         UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL, last_error = 'the worker stopped during the attempt'
         WHERE status = 'delivering' AND locked_until <= now()
         RETURNING id, endpoint_id, attempt_count
       )
       INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, attempt, latency_ms, error, next_attempt_at)
       SELECT new_id('wha'), id, endpoint_id, attempt_count, $1, 'the worker stopped during the attempt; sending again', now() FROM expired`,
      [leaseSeconds * 1000],
    );
  }

  async function claim(limit: number): Promise<Claimed[]> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK_KEY]);
      const result = await client.query<Claimed>(
        `WITH busy AS (
           SELECT endpoint_id, count(*) AS n FROM webhook_deliveries WHERE status = 'delivering' GROUP BY endpoint_id
         ), candidates AS (
           SELECT due.id, due.next_attempt_at FROM webhook_endpoints ep
           LEFT JOIN busy ON busy.endpoint_id = ep.id
           CROSS JOIN LATERAL (
             SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
             WHERE d.endpoint_id = ep.id AND d.status = 'pending' AND d.next_attempt_at <= now()
             ORDER BY d.next_attempt_at
             LIMIT greatest($2::int - coalesce(busy.n, 0)::int, 0)
             FOR UPDATE OF d SKIP LOCKED
           ) due
           WHERE ep.enabled
             -- A workspace whose plan no longer includes webhooks gets no more deliveries (they wait, in case it comes back).
             AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = ep.workspace_id AND w.plan::text = ANY($4::text[]))
           ORDER BY due.next_attempt_at
           LIMIT $1
         )
         UPDATE webhook_deliveries d
         SET status = 'delivering', attempt_count = d.attempt_count + 1, locked_until = now() + make_interval(secs => $3)
         FROM candidates c, webhook_events e, webhook_endpoints ep
         WHERE d.id = c.id AND d.status = 'pending' AND e.id = d.event_id AND ep.id = d.endpoint_id
         RETURNING d.id, d.event_id, d.endpoint_id, ep.workspace_id, d.attempt_count, e.type, e.payload, e.created_at, ep.url, ep.secret, ep.previous_secret, ep.previous_secret_expires_at`,
        [limit, config.WEBHOOK_ENDPOINT_CONCURRENCY, leaseSeconds, WEBHOOK_PLANS],
      );
      await client.query('COMMIT');
      return result.rows;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  function signingSecrets(delivery: Claimed): string[] {
    const secrets = [deps.box.open(delivery.secret, secretContext(delivery.endpoint_id, 'secret'))];
    if (delivery.previous_secret && delivery.previous_secret_expires_at && delivery.previous_secret_expires_at.getTime() > Date.now()) {
      secrets.push(deps.box.open(delivery.previous_secret, secretContext(delivery.endpoint_id, 'previous_secret')));
    }
    return secrets;
  }

  async function deliver(delivery: Claimed) {
    // The body is the same on every attempt; the timestamp header is the attempt's (receivers reject stale ones).
    const body = JSON.stringify({ type: delivery.type, timestamp: delivery.created_at.toISOString(), data: delivery.payload });
    let result: AttemptResult;
    try {
      result = await sender.send(delivery.url, webhookHeaders(signingSecrets(delivery), delivery.event_id, Math.floor(Date.now() / 1000), body), body);
    } catch (error) {
      result = { status: null, latencyMs: 0, retryAfter: null, error: error instanceof Error ? error.message : String(error) };
    }
    const outcome = attemptOutcome(result, delivery.attempt_count, config.WEBHOOK_RETRY_SCHEDULE, new Date());
    await record(delivery, result, outcome);
  }

  async function record(delivery: Claimed, result: AttemptResult, outcome: AttemptOutcome) {
    const succeeded = outcome.kind === 'succeeded';
    const status = succeeded ? 'succeeded' : outcome.kind === 'retry' ? 'pending' : 'failed';
    const delay = outcome.kind === 'retry' ? outcome.delaySeconds : null;
    const error = result.error ?? (succeeded ? null : `HTTP ${result.status}`);
    const recorded = await pool.query<{ failing_since: Date | null }>(
      `WITH updated AS (
         UPDATE webhook_deliveries
         SET status = $2, locked_until = NULL, last_response_status = $4, last_latency_ms = $5, last_error = $6,
             next_attempt_at = CASE WHEN $7::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $7::float8) END,
             finished_at = CASE WHEN $2 = 'pending' THEN NULL ELSE now() END
         WHERE id = $1 AND status = 'delivering' AND attempt_count = $3
         RETURNING id, endpoint_id, next_attempt_at
       ), attempt AS (
         INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, attempt, response_status, latency_ms, error, next_attempt_at)
         SELECT new_id('wha'), id, endpoint_id, $3, $4, $5, $6, next_attempt_at FROM updated
       )
       UPDATE webhook_endpoints ep
       SET failing_since = CASE WHEN $8 THEN NULL ELSE coalesce(ep.failing_since, now()) END
       FROM updated WHERE ep.id = updated.endpoint_id
       RETURNING ep.failing_since`,
      [delivery.id, status, delivery.attempt_count, result.status, result.latencyMs, error, delay, succeeded],
    );
    const failingSince = recorded.rows[0]?.failing_since ?? null;
    if (outcome.kind === 'gone') await disable(delivery, 'the endpoint answered 410 Gone');
    else if (failingSince && Date.now() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) await disable(delivery, `every attempt failed since ${failingSince.toISOString()}`);
  }

  async function disable(delivery: Claimed, reason: string) {
    await applyEnabled(pool, delivery.endpoint_id, false, reason);
    await recordAudit(deps.prisma, { workspaceId: delivery.workspace_id, actor: 'system', action: 'webhook_endpoint.disabled', target: delivery.endpoint_id, details: { reason } });
    logger.warn({ endpointId: delivery.endpoint_id, reason }, 'webhook endpoint disabled');
  }

  /** Events (and with them their deliveries and attempts) older than the retention period. */
  async function removeExpired() {
    let removed: number;
    do {
      const result = await pool.query(
        `DELETE FROM webhook_events WHERE id IN (
           SELECT id FROM webhook_events WHERE created_at < now() - make_interval(days => $1::int) ORDER BY created_at LIMIT ${RETENTION_BATCH})`,
        [Math.ceil(config.WEBHOOK_RETENTION_DAYS)],
      );
      removed = result.rowCount ?? 0;
    } while (removed === RETENTION_BATCH && !stopping);
  }

  async function listen() {
    const client = new pg.Client({ connectionString: deps.databaseUrl, application_name: 'signalboard-webhooks-listen' });
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
