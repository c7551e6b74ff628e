// The delivery worker's steps, each one statement (or transaction) against PostgreSQL, the only
// coordination between workers (see worker.ts for how they are scheduled):
// - fan-out: undispatched events are claimed with FOR UPDATE SKIP LOCKED and turned into one
//   delivery per subscribed endpoint, in one statement;
// - claim: due deliveries are leased (status 'delivering', locked_until) under a short
//   transaction-scoped advisory lock, so the per-endpoint and per-workspace in-flight bounds
//   hold over all workers and no delivery is claimed twice; workspaces take turns;
// - reclaim: a worker that died mid-attempt leaves a lease that expires after the attempt
//   timeout; the delivery is recorded as interrupted and sent again with the same id;
// - record: the outcome is written only while the lease is still ours (attempt_count fences);
// - retention: old events go with their deliveries and attempts.
import type pg from 'pg';
import { runStatement, sqlStatement, type SqlRunner } from '../db/sql-runner.js';
import { inTransaction } from '../db/transaction.js';
import { WEBHOOK_PLANS } from './endpoints.js';
import type { AttemptOutcome } from './retry-schedule.js';
import type { AttemptResult } from './sender.js';

export const FAN_OUT_BATCH = 1_000;
const RETENTION_BATCH = 5_000;
const CLAIM_LOCK_KEY = 0x5b0a4d; // pg_advisory_xact_lock key of the claim step

export interface Claimed {
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

const FAN_OUT = sqlStatement<{ events: string }, { plans: readonly string[] }>(
  'webhooks.fan-out',
  (param) => `WITH due AS (
       SELECT id, workspace_id, type, created_at FROM webhook_events
       WHERE dispatched_at IS NULL ORDER BY created_at LIMIT ${FAN_OUT_BATCH} FOR UPDATE SKIP LOCKED
     ), fanned AS (
       INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
       SELECT new_id('whd'), due.id, ep.id, 'pending', now()
       FROM due
       JOIN workspaces w ON w.id = due.workspace_id AND w.plan::text = ANY(${param('plans')}::text[])
       JOIN webhook_endpoints ep ON ep.workspace_id = due.workspace_id AND ep.enabled
         AND due.type = ANY(ep.event_types) AND ep.enabled_at <= due.created_at
       ON CONFLICT (event_id, endpoint_id) DO NOTHING
       RETURNING 1
     ), marked AS (
       UPDATE webhook_events e SET dispatched_at = now() FROM due WHERE e.id = due.id RETURNING 1
     )
     SELECT (SELECT count(*) FROM marked) AS events, (SELECT count(*) FROM fanned) AS deliveries`,
);

/** Turns up to FAN_OUT_BATCH undispatched events into deliveries; the number of events taken. */
export async function fanOut(db: SqlRunner): Promise<number> {
  return Number((await runStatement(db, FAN_OUT, { plans: WEBHOOK_PLANS })).rows[0]!.events);
}

const INTERRUPTED = 'the worker stopped during the attempt';
const RECLAIM = sqlStatement<never, { latencyMs: number }>(
  'webhooks.reclaim',
  (param) => `WITH expired AS (
       UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL,
         last_error = '${INTERRUPTED}'
       WHERE status = 'delivering' AND locked_until <= now()
       RETURNING id, endpoint_id, attempt_count
     )
     INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, attempt, latency_ms, error, next_attempt_at)
     SELECT new_id('wha'), id, endpoint_id, attempt_count, ${param('latencyMs')}, '${INTERRUPTED}; sending again', now()
     FROM expired`,
);

/** Leases left by a worker that stopped mid-attempt: recorded as such and made due again. */
export async function reclaimExpiredLeases(db: SqlRunner, leaseSeconds: number): Promise<void> {
  await runStatement(db, RECLAIM, { latencyMs: leaseSeconds * 1000 });
}

interface ClaimParams {
  limit: number;
  perEndpoint: number;
  perWorkspace: number;
  leaseSeconds: number;
  plans: readonly string[];
}

const CLAIM_LOCK = sqlStatement<never>('webhooks.claim-lock', () => `SELECT pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`);
const CLAIM = sqlStatement<Claimed, ClaimParams>(
  'webhooks.claim',
  (param) => `WITH leased AS (
       SELECT d.endpoint_id, ep.workspace_id
       FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
       WHERE d.status = 'delivering'
     ), busy_endpoint AS (
       SELECT endpoint_id, count(*) AS n FROM leased GROUP BY endpoint_id
     ), busy_workspace AS (
       SELECT workspace_id, count(*) AS n FROM leased GROUP BY workspace_id
     ), due AS (
       SELECT due.id, due.next_attempt_at, ep.workspace_id FROM webhook_endpoints ep
       LEFT JOIN busy_endpoint busy ON busy.endpoint_id = ep.id
       CROSS JOIN LATERAL (
         SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
         WHERE d.endpoint_id = ep.id AND d.status = 'pending' AND d.next_attempt_at <= now()
         ORDER BY d.next_attempt_at
         LIMIT greatest(${param('perEndpoint')}::int - coalesce(busy.n, 0)::int, 0)
         FOR UPDATE OF d SKIP LOCKED
       ) due
       WHERE ep.enabled
         -- A workspace whose plan no longer includes webhooks gets no more deliveries
         -- (they wait, in case it comes back).
         AND EXISTS (SELECT 1 FROM workspaces w
           WHERE w.id = ep.workspace_id AND w.plan::text = ANY(${param('plans')}::text[]))
     ), turns AS (
       SELECT due.id, due.next_attempt_at, coalesce(busy.n, 0) AS busy,
              row_number() OVER (PARTITION BY due.workspace_id ORDER BY due.next_attempt_at) AS turn
       FROM due LEFT JOIN busy_workspace busy ON busy.workspace_id = due.workspace_id
     ), candidates AS (
       SELECT id FROM turns WHERE busy + turn <= ${param('perWorkspace')}
       ORDER BY turn, next_attempt_at
       LIMIT ${param('limit')}
     )
     UPDATE webhook_deliveries d
     SET status = 'delivering', attempt_count = d.attempt_count + 1,
       locked_until = now() + make_interval(secs => ${param('leaseSeconds')})
     FROM candidates c, webhook_events e, webhook_endpoints ep
     WHERE d.id = c.id AND d.status = 'pending' AND e.id = d.event_id AND ep.id = d.endpoint_id
     RETURNING d.id, d.event_id, d.endpoint_id, ep.workspace_id, d.attempt_count, e.type, e.payload, e.created_at,
       ep.url, ep.secret, ep.previous_secret, ep.previous_secret_expires_at`,
);

/**
 * Leases up to `limit` due deliveries, at most `perEndpoint` in flight per endpoint and `perWorkspace`
 * per workspace over all workers, taken round-robin: every workspace's earliest due delivery before
 * any workspace's second, so one workspace's backlog (or stalling receivers) cannot take every slot.
 */
export function claimDue(
  pool: pg.Pool,
  options: { limit: number; perEndpoint: number; perWorkspace: number; leaseSeconds: number },
): Promise<Claimed[]> {
  return inTransaction(pool, async (client) => {
    await runStatement(client, CLAIM_LOCK);
    return (await runStatement(client, CLAIM, { ...options, plans: WEBHOOK_PLANS })).rows;
  });
}

interface OutcomeParams {
  id: string;
  status: string;
  attempt: number;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  delaySeconds: number | null;
  succeeded: boolean;
}

const RECORD_OUTCOME = sqlStatement<{ failing_since: Date | null }, OutcomeParams>(
  'webhooks.record-outcome',
  (param) => `WITH updated AS (
       UPDATE webhook_deliveries
       SET status = ${param('status')}, locked_until = NULL, last_response_status = ${param('responseStatus')},
           last_latency_ms = ${param('latencyMs')}, last_error = ${param('error')},
           next_attempt_at = CASE WHEN ${param('delaySeconds')}::float8 IS NULL THEN NULL
             ELSE now() + make_interval(secs => ${param('delaySeconds')}::float8) END,
           finished_at = CASE WHEN ${param('status')} = 'pending' THEN NULL ELSE now() END
       WHERE id = ${param('id')} AND status = 'delivering' AND attempt_count = ${param('attempt')}
       RETURNING id, endpoint_id, next_attempt_at
     ), attempt AS (
       INSERT INTO webhook_attempts
         (id, delivery_id, endpoint_id, attempt, response_status, latency_ms, error, next_attempt_at)
       SELECT new_id('wha'), id, endpoint_id, ${param('attempt')}, ${param('responseStatus')}, ${param('latencyMs')},
         ${param('error')}, next_attempt_at FROM updated
     )
     UPDATE webhook_endpoints ep
     SET failing_since = CASE WHEN ${param('succeeded')} THEN NULL ELSE coalesce(ep.failing_since, now()) END
     FROM updated WHERE ep.id = updated.endpoint_id
     RETURNING ep.failing_since`,
);

/** Writes one attempt's outcome while the lease is ours; the endpoint's failing-since time after it. */
export async function recordOutcome(
  db: SqlRunner,
  delivery: Claimed,
  result: AttemptResult,
  outcome: AttemptOutcome,
): Promise<Date | null> {
  const succeeded = outcome.kind === 'succeeded';
  const recorded = await runStatement(db, RECORD_OUTCOME, {
    id: delivery.id,
    status: succeeded ? 'succeeded' : outcome.kind === 'retry' ? 'pending' : 'failed',
    attempt: delivery.attempt_count,
    responseStatus: result.status,
    latencyMs: result.latencyMs,
    error: result.error ?? (succeeded ? null : `HTTP ${result.status}`),
    delaySeconds: outcome.kind === 'retry' ? outcome.delaySeconds : null,
    succeeded,
  });
  return recorded.rows[0]?.failing_since ?? null;
}

const REMOVE_EXPIRED = sqlStatement<never, { retentionDays: number }>(
  'webhooks.remove-expired',
  (param) => `DELETE FROM webhook_events WHERE id IN (
     SELECT id FROM webhook_events WHERE created_at < now() - make_interval(days => ${param('retentionDays')}::int)
     ORDER BY created_at LIMIT ${RETENTION_BATCH})`,
);

/** Events (and with them their deliveries and attempts) older than the retention period, in batches. */
export async function removeExpiredEvents(
  db: SqlRunner,
  retentionDays: number,
  stopping: () => boolean,
): Promise<void> {
  let removed: number;
  do {
    removed = (await runStatement(db, REMOVE_EXPIRED, { retentionDays: Math.ceil(retentionDays) })).rowCount;
  } while (removed === RETENTION_BATCH && !stopping());
}
