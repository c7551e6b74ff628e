// Webhook endpoints of a workspace: the domain code behind the CLI and the settings page.
// Owners and admins only; every change is audited; secrets are sealed at rest and only the
// owner-facing calls here open them.
import type pg from 'pg';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import { isIdOf, newId } from '../db/ids.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Actor } from '../workspaces/index.js';
import type { SqlRunner } from '../db/sql-runner.js';
import { tenantStatement } from '../db/tenant-sql.js';
import { workspaceScopes } from '../db/workspace-scope.js';
import { adminCommand, authorizeActor, sqlOf, type AdminCommandPolicy } from '../workspaces/index.js';
import { UsageError } from '../errors/index.js';
import { EVENT_TYPES, type EventType } from './outbox.js';
import { generateSecret } from './signing.js';
import { endpointDescription } from './endpoint-input.js';
import { urlRefusal, type TargetPolicy } from '../http/outbound-guard.js';

export const WEBHOOK_PLANS: readonly Plan[] = ['pro', 'agency', 'scale'];
/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_GRACE_HOURS = 24;
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;

export interface WebhookDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  box: SecretBox;
  policy: TargetPolicy;
}

/** The endpoints' dependencies as every door builds them: the target policy comes from the configuration. */
export const webhookDepsOf = (
  config: Pick<Config, 'WEBHOOK_ALLOW_HTTP' | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>,
  parts: Omit<WebhookDeps, 'policy'>,
): WebhookDeps => ({
  ...parts,
  policy: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
});

export const secretContext = (endpointId: string, which: 'secret' | 'previous_secret') =>
  `webhook_endpoint:${endpointId}:${which}`;

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
  const types = [
    ...new Set(
      list
        .split(',')
        .map((type) => type.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = types.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length || !types.length)
    throw new UsageError(`unknown event type ${unknown.join(', ') || '(none)'}; allowed: ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

const MANAGE: AdminCommandPolicy = { what: 'manage webhooks' };

/** An endpoint by id (any workspace: the admin command checks the actor belongs to its workspace). */
async function endpointById(deps: WebhookDeps, endpointId: string) {
  if (!isIdOf('endpoint', endpointId)) throw new UsageError(`${endpointId} is not an endpoint id (whe_…)`);
  const endpoint = await deps.prisma.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!endpoint) throw new UsageError(`no webhook endpoint ${endpointId}`, 'not_found');
  return endpoint;
}

export function createEndpoint(
  deps: WebhookDeps,
  input: { workspaceId: string; url: string; eventTypes: EventType[]; description?: string | null; actor: Actor },
) {
  return adminCommand(
    deps.prisma,
    input,
    { ...MANAGE, plans: { allowed: WEBHOOK_PLANS, feature: 'webhooks need' } },
    async ({ tx, audit }) => {
      const refusal = urlRefusal(input.url, deps.policy);
      if (refusal) throw new UsageError(`invalid endpoint URL: ${refusal}`);
      const description = endpointDescription(input.description);
      if (
        (await tx.webhookEndpoint.count({ where: { workspaceId: input.workspaceId } })) >= MAX_ENDPOINTS_PER_WORKSPACE
      ) {
        throw new UsageError(`a workspace has at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints`, 'conflict');
      }
      const id = newId('endpoint');
      const secret = generateSecret();
      const row = await tx.webhookEndpoint.create({
        data: {
          id,
          workspaceId: input.workspaceId,
          url: input.url,
          eventTypes: input.eventTypes,
          description,
          secret: deps.box.seal(secret, secretContext(id, 'secret')),
        },
      });
      await audit('webhook_endpoint.created', id, { url: input.url, eventTypes: input.eventTypes });
      return { ...view(row), secret };
    },
  );
}

export async function listEndpoints(deps: WebhookDeps, workspaceId: string): Promise<EndpointView[]> {
  const rows = await deps.prisma.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: { createdAt: 'desc' } });
  return rows.map(view);
}

export async function revealSecret(deps: WebhookDeps, endpointId: string, actor: Actor) {
  const endpoint = await endpointById(deps, endpointId);
  return adminCommand(
    deps.prisma,
    { workspaceId: endpoint.workspaceId, actor },
    { what: 'read webhook secrets' },
    async ({ audit }) => {
      await audit('webhook_endpoint.secret_revealed', endpoint.id);
      return { id: endpoint.id, secret: deps.box.open(endpoint.secret, secretContext(endpoint.id, 'secret')) };
    },
  );
}

/** A new secret; the old one keeps signing beside it for ROTATION_GRACE_HOURS so receivers can switch without losing deliveries. */
export async function rotateSecret(deps: WebhookDeps, endpointId: string, actor: Actor) {
  const endpoint = await endpointById(deps, endpointId);
  return adminCommand(deps.prisma, { workspaceId: endpoint.workspaceId, actor }, MANAGE, async ({ tx, audit }) => {
    const secret = generateSecret();
    const previous = deps.box.open(endpoint.secret, secretContext(endpoint.id, 'secret'));
    const previousSecretExpiresAt = new Date(Date.now() + ROTATION_GRACE_HOURS * 3_600_000);
    await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: {
        secret: deps.box.seal(secret, secretContext(endpoint.id, 'secret')),
        previousSecret: deps.box.seal(previous, secretContext(endpoint.id, 'previous_secret')),
        previousSecretExpiresAt,
      },
    });
    await audit('webhook_endpoint.secret_rotated', endpoint.id);
    return { id: endpoint.id, secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
  });
}

/**
 * Enabling starts a new window: the endpoint receives events created from now on (earlier ones
 * only by replay). Disabling ends its pending deliveries as failed, so they can be replayed later.
 */
export async function setEnabled(
  deps: WebhookDeps,
  endpointId: string,
  enabled: boolean,
  actor: Actor,
  reason = 'disabled by an admin',
) {
  const endpoint = await endpointById(deps, endpointId);
  return adminCommand(deps.prisma, { workspaceId: endpoint.workspaceId, actor }, MANAGE, async ({ tx, audit }) => {
    if (endpoint.enabled !== enabled) await applyEnabled(sqlOf(tx), endpoint.id, enabled, reason);
    await audit(
      enabled ? 'webhook_endpoint.enabled' : 'webhook_endpoint.disabled',
      endpoint.id,
      enabled ? {} : { reason },
    );
    return view(await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }));
  });
}

/** The state change itself, shared with the worker (410 Gone, five days of failures). */
export async function applyEnabled(db: SqlRunner, endpointId: string, enabled: boolean, reason: string | null) {
  if (enabled) {
    await db.query(
      'UPDATE webhook_endpoints SET enabled = true, enabled_at = now(), disabled_reason = NULL, failing_since = NULL WHERE id = $1',
      [endpointId],
    );
    return;
  }
  await db.query('UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2 WHERE id = $1', [
    endpointId,
    reason,
  ]);
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

/** The newest attempts of endpoint $2 of the workspace, at most $3: settings, the CLI and the graph read them alike. */
export const ATTEMPTS = tenantStatement<AttemptView>(
  'webhooks.attempts',
  (
    workspace,
  ) => `SELECT a.id, d.event_id AS "eventId", e.type AS "eventType", a.attempt, a.response_status AS "responseStatus", a.latency_ms AS "latencyMs",
      a.error, a.next_attempt_at AS "nextAttemptAt", a.created_at AS "createdAt", d.status AS "deliveryStatus"
    FROM webhook_attempts a JOIN webhook_endpoints ep ON ep.id = a.endpoint_id JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_events e ON e.id = d.event_id
    WHERE ${workspace('ep')} AND a.endpoint_id = $2 ORDER BY a.created_at DESC, a.id DESC LIMIT $3`,
);

export async function listAttempts(
  deps: WebhookDeps,
  endpointId: string,
  actor: Actor,
  limit = 100,
): Promise<AttemptView[]> {
  const endpoint = await endpointById(deps, endpointId);
  await authorizeActor(deps.prisma, endpoint.workspaceId, actor, { what: 'see webhook attempts' });
  return workspaceScopes(deps.pool)(endpoint.workspaceId).rows(ATTEMPTS, [endpoint.id, limit]);
}

const REPLAY: AdminCommandPolicy = { what: 'replay webhooks' };
const REPLAY_RESET =
  "status = 'pending', attempt_count = 0, next_attempt_at = now(), finished_at = NULL, last_error = NULL";

/** Sends one event again, with the same webhook-id, to one endpoint or to every enabled endpoint subscribed to its type. */
export async function replayEvent(deps: WebhookDeps, eventId: string, endpointId: string | null, actor: Actor) {
  if (!isIdOf('event', eventId)) throw new UsageError(`${eventId} is not an event id (evt_…)`);
  const event = await deps.prisma.webhookEvent.findUnique({ where: { id: eventId } });
  if (!event) throw new UsageError(`no event ${eventId} (events are kept for the retention period)`, 'not_found');
  return adminCommand(deps.prisma, { workspaceId: event.workspaceId, actor }, REPLAY, async ({ tx, audit }) => {
    if (endpointId) {
      const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: endpointId } });
      if (!endpoint || endpoint.workspaceId !== event.workspaceId)
        throw new UsageError(`no webhook endpoint ${endpointId} in this event's workspace`, 'not_found');
      if (!endpoint.enabled) throw new UsageError(`endpoint ${endpointId} is disabled; enable it first`, 'conflict');
    }
    const result = await sqlOf(tx).query(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
     SELECT new_id('whd'), $1, ep.id, 'pending', now()
     FROM webhook_endpoints ep
     WHERE ep.workspace_id = $2 AND ep.enabled AND ($3::text IS NULL OR ep.id = $3) AND ($3::text IS NOT NULL OR $4 = ANY(ep.event_types))
     ON CONFLICT (event_id, endpoint_id) DO UPDATE SET ${REPLAY_RESET}
     WHERE webhook_deliveries.status <> 'delivering'
     RETURNING endpoint_id`,
      [event.id, event.workspaceId, endpointId, event.type],
    );
    const endpoints = result.rows.map((row) => row.endpoint_id as string);
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
  const endpoint = await endpointById(deps, endpointId);
  return adminCommand(
    deps.prisma,
    { workspaceId: endpoint.workspaceId, actor },
    { ...MANAGE, plans: { allowed: WEBHOOK_PLANS, feature: 'webhooks need' } },
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

/** Every delivery of the workspace that failed at or after `since`, to enabled endpoints, sent again with the same ids. */
export async function replayFailed(deps: WebhookDeps, workspaceId: string, since: Date, actor: Actor) {
  if (Number.isNaN(since.getTime())) throw new UsageError('--since must be an ISO 8601 time');
  return adminCommand(deps.prisma, { workspaceId, actor }, REPLAY, async ({ tx, audit }) => {
    const result = await sqlOf(tx).query(
      `UPDATE webhook_deliveries d SET ${REPLAY_RESET}
       FROM webhook_endpoints ep
       WHERE ep.id = d.endpoint_id AND ep.workspace_id = $1 AND ep.enabled AND d.status = 'failed' AND d.finished_at >= $2
       RETURNING d.id`,
      [workspaceId, since],
    );
    await audit('webhook_deliveries.replayed', workspaceId, {
      since: since.toISOString(),
      deliveries: result.rows.length,
    });
    return { replayed: result.rows.length };
  });
}
