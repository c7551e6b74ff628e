// Sending webhook events again: one event (to one endpoint or every subscribed one), every failed
// delivery since a time, and a test event for one endpoint. Each is an admin command; the replays
// reset deliveries in one declared statement inside its transaction.
import { isIdOf, newId } from '../db/ids.js';
import { runStatement, sqlStatement } from '../db/sql-runner.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand, inActorsWorkspace, sqlOf, type AdminCommandPolicy } from '../workspaces/index.js';
import { UsageError } from '../errors/index.js';
import { EVENT_TYPES } from './outbox.js';
import { endpointById, MANAGE, type WebhookDeps } from './endpoints.js';

// A replay only queues deliveries, and the worker sends none on a plan without webhooks: refused like creating one.
const REPLAY: AdminCommandPolicy = { what: 'replay webhooks', feature: 'webhooks' };
const REPLAY_RESET =
  "status = 'pending', attempt_count = 0, next_attempt_at = now(), finished_at = NULL, last_error = NULL";

interface ReplayEventParams {
  eventId: string;
  workspaceId: string;
  endpointId: string | null;
  eventType: string;
}

// One endpoint when `endpointId` is given, otherwise every enabled one subscribed to the event's type.
const REPLAY_EVENT = sqlStatement<{ endpoint_id: string }, ReplayEventParams>(
  'webhooks.replay-event',
  (param) => `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
     SELECT new_id('whd'), ${param('eventId')}, ep.id, 'pending', now()
     FROM webhook_endpoints ep
     WHERE ep.workspace_id = ${param('workspaceId')} AND ep.enabled
       AND (${param('endpointId')}::text IS NULL OR ep.id = ${param('endpointId')})
       AND (${param('endpointId')}::text IS NOT NULL OR ${param('eventType')} = ANY(ep.event_types))
     ON CONFLICT (event_id, endpoint_id) DO UPDATE SET ${REPLAY_RESET}
     WHERE webhook_deliveries.status <> 'delivering'
     RETURNING endpoint_id`,
);

const REPLAY_FAILED = sqlStatement<{ id: string }, { workspaceId: string; since: Date }>(
  'webhooks.replay-failed',
  (param) => `UPDATE webhook_deliveries d SET ${REPLAY_RESET}
     FROM webhook_endpoints ep
     WHERE ep.id = d.endpoint_id AND ep.workspace_id = ${param('workspaceId')} AND ep.enabled
       AND d.status = 'failed' AND d.finished_at >= ${param('since')}
     RETURNING d.id`,
);

/**
 * Sends one event again, with the same webhook-id, to one endpoint or to every enabled endpoint
 * subscribed to its type.
 */
export async function replayEvent(deps: WebhookDeps, eventId: string, endpointId: string | null, actor: Actor) {
  if (!isIdOf('event', eventId)) throw new UsageError(`${eventId} is not an event id (evt_…)`);
  const event = await deps.prisma.webhookEvent.findFirst({ where: { id: eventId, ...inActorsWorkspace(actor) } });
  if (!event) throw new UsageError(`no event ${eventId} (events are kept for the retention period)`, 'not_found');
  return adminCommand(deps.prisma, { workspaceId: event.workspaceId, actor }, REPLAY, async ({ tx, audit }) => {
    if (endpointId) {
      const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: endpointId } });
      if (!endpoint || endpoint.workspaceId !== event.workspaceId)
        throw new UsageError(`no webhook endpoint ${endpointId} in this event's workspace`, 'not_found');
      if (!endpoint.enabled) throw new UsageError(`endpoint ${endpointId} is disabled; enable it first`, 'conflict');
    }
    const result = await runStatement(sqlOf(tx), REPLAY_EVENT, {
      eventId: event.id,
      workspaceId: event.workspaceId,
      endpointId,
      eventType: event.type,
    });
    const endpoints = result.rows.map((row) => row.endpoint_id);
    await audit('webhook_event.replayed', event.id, { endpoints });
    return { eventId: event.id, endpoints };
  });
}

/**
 * A test event for one endpoint: of the first type it subscribes to, its data marked
 * `test: true`, delivered to that endpoint only (the event is born dispatched, so the fan-out
 * never sends it elsewhere), signed and retried like any other.
 */
export async function sendTestEvent(deps: WebhookDeps, endpointId: string, actor: Actor) {
  const endpoint = await endpointById(deps, endpointId, actor);
  return adminCommand(
    deps.prisma,
    { workspaceId: endpoint.workspaceId, actor },
    { ...MANAGE, feature: 'webhooks' },
    async ({ tx, audit }) => {
      if (!endpoint.enabled) throw new UsageError(`endpoint ${endpoint.id} is disabled; enable it first`, 'conflict');
      const type = endpoint.eventTypes[0] ?? EVENT_TYPES[0];
      const eventId = newId('event');
      await tx.webhookEvent.create({
        data: {
          id: eventId,
          workspaceId: endpoint.workspaceId,
          type,
          payload: {
            test: true,
            message: 'A test event from Signalboard: your endpoint receives and verifies deliveries.',
          },
          dispatchedAt: new Date(),
        },
      });
      await tx.webhookDelivery.create({
        data: { id: newId('delivery'), eventId, endpointId: endpoint.id, status: 'pending', nextAttemptAt: new Date() },
      });
      await audit('webhook_endpoint.test_sent', endpoint.id, { eventId, type });
      return { eventId, endpointId: endpoint.id, type };
    },
  );
}

/**
 * Every delivery of the workspace that failed at or after `since`, to enabled endpoints, sent again
 * with the same ids.
 */
export async function replayFailed(deps: WebhookDeps, workspaceId: string, since: Date, actor: Actor) {
  if (Number.isNaN(since.getTime())) throw new UsageError('--since must be an ISO 8601 time');
  return adminCommand(deps.prisma, { workspaceId, actor }, REPLAY, async ({ tx, audit }) => {
    const result = await runStatement(sqlOf(tx), REPLAY_FAILED, { workspaceId, since });
    await audit('webhook_deliveries.replayed', workspaceId, {
      since: since.toISOString(),
      deliveries: result.rows.length,
    });
    return { replayed: result.rows.length };
  });
}
