// The outbox: events are rows written by the transaction that changed the data, so an event
// exists exactly when its data was committed. The delivery worker fans them out.
import { newId } from '../db/ids.js';
import { runStatement, sqlStatement, type SqlRunner } from '../db/sql-runner.js';

export const EVENT_TYPES = ['scan.completed', 'signal.created'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Notified on commit of a transaction that wrote events, so idle workers wake at once. */
export const OUTBOX_CHANNEL = 'signalboard_webhook_events';

export interface OutboxEvent {
  workspaceId: string;
  type: EventType;
  data: Record<string, unknown>;
}

// The events as columns (one array per column), so one declared statement takes any number.
const APPEND = sqlStatement<never, { ids: string[]; workspaceIds: string[]; types: string[]; payloads: string[] }>(
  'webhooks.append-events',
  (param) => `INSERT INTO webhook_events (id, workspace_id, type, payload)
    SELECT id, workspace_id, type, payload::jsonb
    FROM unnest(${param('ids')}::text[], ${param('workspaceIds')}::text[], ${param('types')}::text[],
      ${param('payloads')}::text[]) AS e(id, workspace_id, type, payload)`,
);
// NOTIFY inside a transaction is delivered at commit, and never for a rollback.
const NOTIFY = sqlStatement<never>('webhooks.notify', () => `SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);

/** Writes the events in the caller's transaction (`db` is its client). */
export async function appendEvents(db: SqlRunner, events: readonly OutboxEvent[]): Promise<void> {
  if (!events.length) return;
  await runStatement(db, APPEND, {
    ids: events.map(() => newId('event')),
    workspaceIds: events.map((event) => event.workspaceId),
    types: events.map((event) => event.type),
    payloads: events.map((event) => JSON.stringify(event.data)),
  });
  await runStatement(db, NOTIFY);
}

const BACKLOG = sqlStatement<{ undispatched: number; pending: number; oldest: number | null }>(
  'webhooks.backlog',
  () => `SELECT (SELECT count(*)::int FROM webhook_events WHERE dispatched_at IS NULL) AS undispatched,
    (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'pending') AS pending,
    (SELECT extract(epoch FROM now() - min(next_attempt_at))::float8 FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= now()) AS oldest`,
);

/**
 * What an operator watches: events not yet fanned out, deliveries waiting, and how long the oldest
 * due one has waited.
 */
export async function webhookBacklog(
  db: SqlRunner,
): Promise<{ undispatched: number; pending: number; oldestPendingSeconds: number }> {
  const row = (await runStatement(db, BACKLOG)).rows[0]!;
  return { undispatched: row.undispatched, pending: row.pending, oldestPendingSeconds: Math.max(0, row.oldest ?? 0) };
}
