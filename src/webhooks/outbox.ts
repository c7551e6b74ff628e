// The outbox: events are rows written by the transaction that changed the data, so an event
// exists exactly when its data was committed. The delivery worker fans them out.
import type pg from 'pg';
import { newId } from '../db/ids.js';

export const EVENT_TYPES = ['scan.completed', 'signal.created'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Notified on commit of a transaction that wrote events, so idle workers wake at once. */
export const OUTBOX_CHANNEL = 'signalboard_webhook_events';

export interface OutboxEvent {
  workspaceId: string;
  type: EventType;
  data: Record<string, unknown>;
}

const ROWS_PER_STATEMENT = 1000;

export async function appendEvents(client: pg.PoolClient | pg.Client, events: readonly OutboxEvent[]): Promise<void> {
  for (let start = 0; start < events.length; start += ROWS_PER_STATEMENT) {
    const batch = events.slice(start, start + ROWS_PER_STATEMENT);
    const values: unknown[] = [];
    const rows = batch.map((event) => {
      const placeholders = [newId('event'), event.workspaceId, event.type, JSON.stringify(event.data)].map(
        (value) => `$${values.push(value)}`,
      );
      return `(${placeholders.join(', ')}::jsonb)`;
    });
    await client.query(
      `INSERT INTO webhook_events (id, workspace_id, type, payload) VALUES ${rows.join(', ')}`,
      values,
    );
  }
  // NOTIFY inside a transaction is delivered at commit, and never for a rollback.
  if (events.length) await client.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
}

/** What an operator watches: events not yet fanned out, deliveries waiting, and how long the oldest due one has waited. */
export async function webhookBacklog(
  pool: Pick<pg.Pool, 'query'>,
): Promise<{ undispatched: number; pending: number; oldestPendingSeconds: number }> {
  const row = (
    await pool.query<{ undispatched: number; pending: number; oldest: number | null }>(
      `SELECT (SELECT count(*)::int FROM webhook_events WHERE dispatched_at IS NULL) AS undispatched,
              (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'pending') AS pending,
              (SELECT extract(epoch FROM now() - min(next_attempt_at))::float8 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()) AS oldest`,
    )
  ).rows[0]!;
  return { undispatched: row.undispatched, pending: row.pending, oldestPendingSeconds: Math.max(0, row.oldest ?? 0) };
}
