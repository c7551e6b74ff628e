// Webhook endpoints of a workspace: the domain code behind the CLI and the settings page.
// Owners and admins only; every change is audited; secrets are sealed at rest and only the
// owner-facing calls here open them.
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import { isIdOf, newId } from '../db/ids.js';
import { recordAudit } from '../audit/audit-log.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { authorizeAdmin, type Actor } from '../workspaces/actor.js';
import { UsageError } from '../errors/index.js';
import { EVENT_TYPES, type EventType } from './outbox.js';
import { generateSecret } from './signing.js';
import { urlRefusal, type TargetPolicy } from '../http/outbound-guard.js';

export const WEBHOOK_PLANS: readonly Plan[] = ['pro', 'agency', 'scale'];
/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_GRACE_HOURS = 24;
const MAX_ENDPOINTS_PER_WORKSPACE = 20;

export interface WebhookDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  box: SecretBox;
  policy: TargetPolicy;
}

export const secretContext = (endpointId: string, which: 'secret' | 'previous_secret') => `webhook_endpoint:${endpointId}:${which}`;

export interface EndpointView {
  id: string;
  url: string;
  description: string | null;
  eventTypes: EventType[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
}

type EndpointRow = Awaited<ReturnType<PrismaClient['webhookEndpoint']['findUniqueOrThrow']>>;

const view = (row: EndpointRow): EndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.eventTypes as EventType[],
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

export function parseEventTypes(list: string | undefined): EventType[] {
  if (!list) return [...EVENT_TYPES];
  const types = [...new Set(list.split(',').map((type) => type.trim()).filter(Boolean))];
  const unknown = types.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length || !types.length) throw new UsageError(`unknown event type ${unknown.join(', ') || '(none)'}; allowed: ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

async function endpointFor(deps: WebhookDeps, endpointId: string, actor: Actor, what: string) {
  if (!isIdOf('endpoint', endpointId)) throw new UsageError(`${endpointId} is not an endpoint id (whe_…)`);
  const endpoint = await deps.prisma.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!endpoint) throw new UsageError(`no webhook endpoint ${endpointId}`, 'not_found');
  const actorId = await authorizeAdmin(deps.prisma, endpoint.workspaceId, actor, what);
  return { endpoint, actorId };
}

export async function createEndpoint(deps: WebhookDeps, input: { workspaceId: string; url: string; eventTypes: EventType[]; description?: string | null; actor: Actor }) {
  const workspace = await deps.prisma.workspace.findUniqueOrThrow({ where: { id: input.workspaceId } });
  if (!WEBHOOK_PLANS.includes(workspace.plan)) throw new UsageError(`webhooks need the ${WEBHOOK_PLANS.join(', ')} plan; ${workspace.slug} is on ${workspace.plan}`, 'forbidden');
  const actorId = await authorizeAdmin(deps.prisma, input.workspaceId, input.actor, 'manage webhooks');
  const refusal = urlRefusal(input.url, deps.policy);
  if (refusal) throw new UsageError(`invalid endpoint URL: ${refusal}`);
  const description = input.description?.trim() || null;
  if (description && description.length > 500) throw new UsageError('a description is at most 500 characters');
  if ((await deps.prisma.webhookEndpoint.count({ where: { workspaceId: input.workspaceId } })) >= MAX_ENDPOINTS_PER_WORKSPACE) {
    throw new UsageError(`a workspace has at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints`, 'conflict');
  }
  const id = newId('endpoint');
  const secret = generateSecret();
  const row = await deps.prisma.webhookEndpoint.create({
    data: { id, workspaceId: input.workspaceId, url: input.url, eventTypes: input.eventTypes, description, secret: deps.box.seal(secret, secretContext(id, 'secret')) },
  });
  await recordAudit(deps.prisma, { workspaceId: input.workspaceId, actor: actorId, action: 'webhook_endpoint.created', target: id, details: { url: input.url, eventTypes: input.eventTypes } });
  return { ...view(row), secret };
}

export async function listEndpoints(deps: WebhookDeps, workspaceId: string): Promise<EndpointView[]> {
  const rows = await deps.prisma.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: { createdAt: 'desc' } });
  return rows.map(view);
}

export async function revealSecret(deps: WebhookDeps, endpointId: string, actor: Actor) {
  const { endpoint, actorId } = await endpointFor(deps, endpointId, actor, 'read webhook secrets');
  await recordAudit(deps.prisma, { workspaceId: endpoint.workspaceId, actor: actorId, action: 'webhook_endpoint.secret_revealed', target: endpoint.id });
  return { id: endpoint.id, secret: deps.box.open(endpoint.secret, secretContext(endpoint.id, 'secret')) };
}

/** A new secret; the old one keeps signing beside it for ROTATION_GRACE_HOURS so receivers can switch without losing deliveries. */
export async function rotateSecret(deps: WebhookDeps, endpointId: string, actor: Actor) {
  const { endpoint, actorId } = await endpointFor(deps, endpointId, actor, 'manage webhooks');
  const secret = generateSecret();
  const previous = deps.box.open(endpoint.secret, secretContext(endpoint.id, 'secret'));
  const previousSecretExpiresAt = new Date(Date.now() + ROTATION_GRACE_HOURS * 3_600_000);
  await deps.prisma.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: { secret: deps.box.seal(secret, secretContext(endpoint.id, 'secret')), previousSecret: deps.box.seal(previous, secretContext(endpoint.id, 'previous_secret')), previousSecretExpiresAt },
  });
  await recordAudit(deps.prisma, { workspaceId: endpoint.workspaceId, actor: actorId, action: 'webhook_endpoint.secret_rotated', target: endpoint.id });
  return { id: endpoint.id, secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
}

/**
 * Enabling starts a new window: the endpoint receives events created from now on (earlier ones
 * only by replay). Disabling ends its pending deliveries as failed, so they can be replayed later.
 */
export async function setEnabled(deps: WebhookDeps, endpointId: string, enabled: boolean, actor: Actor, reason = 'disabled by an admin') {
  const { endpoint, actorId } = await endpointFor(deps, endpointId, actor, 'manage webhooks');
  if (endpoint.enabled !== enabled) await applyEnabled(deps.pool, endpoint.id, enabled, reason);
  await recordAudit(deps.prisma, { workspaceId: endpoint.workspaceId, actor: actorId, action: enabled ? 'webhook_endpoint.enabled' : 'webhook_endpoint.disabled', target: endpoint.id, ...(enabled ? {} : { details: { reason } }) });
  return view(await deps.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }));
}

/** The state change itself, shared with the worker (410 Gone, five days of failures). */
export async function applyEnabled(db: pg.Pool | pg.PoolClient, endpointId: string, enabled: boolean, reason: string | null) {
  if (enabled) {
    await db.query('UPDATE webhook_endpoints SET enabled = true, enabled_at = now(), disabled_reason = NULL, failing_since = NULL WHERE id = $1', [endpointId]);
    return;
  }
  await db.query('UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2 WHERE id = $1', [endpointId, reason]);
  await db.query(
    "UPDATE webhook_deliveries SET status = 'failed', finished_at = now(), next_attempt_at = NULL, last_error = $2 WHERE endpoint_id = $1 AND status = 'pending'",
    [endpointId, `endpoint disabled: ${reason}`],
  );
}

export interface AttemptView {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveryStatus: string;
}

/** The newest attempts of endpoint $2 in workspace $1, at most $3: settings, the CLI and the graph read them alike. */
export const ATTEMPTS_SQL = `
  SELECT a.id, d.event_id AS "eventId", e.type AS "eventType", a.attempt, a.response_status AS "responseStatus", a.latency_ms AS "latencyMs",
         a.error, a.next_attempt_at AS "nextAttemptAt", a.created_at AS "createdAt", d.status AS "deliveryStatus"
  FROM webhook_attempts a JOIN webhook_endpoints ep ON ep.id = a.endpoint_id JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_events e ON e.id = d.event_id
  WHERE ep.workspace_id = $1 AND a.endpoint_id = $2 ORDER BY a.created_at DESC, a.id DESC LIMIT $3`;

export async function listAttempts(deps: WebhookDeps, endpointId: string, actor: Actor, limit = 100): Promise<AttemptView[]> {
  const { endpoint } = await endpointFor(deps, endpointId, actor, 'see webhook attempts');
  return (await deps.pool.query<AttemptView>(ATTEMPTS_SQL, [endpoint.workspaceId, endpoint.id, limit])).rows;
}

const REPLAY_RESET = "status = 'pending', attempt_count = 0, next_attempt_at = now(), finished_at = NULL, last_error = NULL";

/** Sends one event again, with the same webhook-id, to one endpoint or to every enabled endpoint subscribed to its type. */
export async function replayEvent(deps: WebhookDeps, eventId: string, endpointId: string | null, actor: Actor) {
  if (!isIdOf('event', eventId)) throw new UsageError(`${eventId} is not an event id (evt_…)`);
  const event = await deps.prisma.webhookEvent.findUnique({ where: { id: eventId } });
  if (!event) throw new UsageError(`no event ${eventId} (events are kept for the retention period)`, 'not_found');
  const actorId = await authorizeAdmin(deps.prisma, event.workspaceId, actor, 'replay webhooks');
  if (endpointId) {
    const endpoint = await deps.prisma.webhookEndpoint.findUnique({ where: { id: endpointId } });
    if (!endpoint || endpoint.workspaceId !== event.workspaceId) throw new UsageError(`no webhook endpoint ${endpointId} in this event's workspace`, 'not_found');
    if (!endpoint.enabled) throw new UsageError(`endpoint ${endpointId} is disabled; enable it first`, 'conflict');
  }
  const result = await deps.pool.query(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
     SELECT new_id('whd'), $1, ep.id, 'pending', now()
     FROM webhook_endpoints ep
     WHERE ep.workspace_id = $2 AND ep.enabled AND ($3::text IS NULL OR ep.id = $3) AND ($3::text IS NOT NULL OR $4 = ANY(ep.event_types))
     ON CONFLICT (event_id, endpoint_id) DO UPDATE SET ${REPLAY_RESET}
     WHERE webhook_deliveries.status <> 'delivering'
     RETURNING endpoint_id`,
    [event.id, event.workspaceId, endpointId, event.type],
  );
  await recordAudit(deps.prisma, { workspaceId: event.workspaceId, actor: actorId, action: 'webhook_event.replayed', target: event.id, details: { endpoints: result.rows.map((row) => row.endpoint_id) } });
  return { eventId: event.id, endpoints: result.rows.map((row) => row.endpoint_id as string) };
}

/** Every delivery of the workspace that failed at or after `since`, to enabled endpoints, sent again with the same ids. */
export async function replayFailed(deps: WebhookDeps, workspaceId: string, since: Date, actor: Actor) {
  if (Number.isNaN(since.getTime())) throw new UsageError('--since must be an ISO 8601 time');
  const actorId = await authorizeAdmin(deps.prisma, workspaceId, actor, 'replay webhooks');
  const result = await deps.pool.query(
    `UPDATE webhook_deliveries d SET ${REPLAY_RESET}
     FROM webhook_endpoints ep
     WHERE ep.id = d.endpoint_id AND ep.workspace_id = $1 AND ep.enabled AND d.status = 'failed' AND d.finished_at >= $2`,
    [workspaceId, since],
  );
  await recordAudit(deps.prisma, { workspaceId, actor: actorId, action: 'webhook_deliveries.replayed', target: workspaceId, details: { since: since.toISOString(), deliveries: result.rowCount } });
  return { replayed: result.rowCount ?? 0 };
}
