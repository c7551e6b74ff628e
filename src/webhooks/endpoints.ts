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
import { runStatement, sqlStatement, type SqlRunner } from '../db/sql-runner.js';
import { workspaceScopes } from '../db/workspace-scope.js';
import { webhookRepository, type AttemptView, type EndpointRow } from './webhook-repository.js';
import { adminCommand, authorizeActor, inActorsWorkspace, plansWith, sqlOf } from '../workspaces/index.js';
import type { AdminCommandPolicy } from '../workspaces/index.js';
import { UsageError } from '../errors/index.js';
import { EVENT_TYPES, type EventType } from './outbox.js';
import { generateSecret } from './signing.js';
import { endpointDescription } from './endpoint-input.js';
import { urlRefusal, type TargetPolicy } from '../http/outbound-guard.js';

export const WEBHOOK_PLANS: readonly Plan[] = plansWith('webhooks');
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

export const MANAGE: AdminCommandPolicy = { what: 'manage webhooks' };

/** An endpoint by id: of any workspace for the operator, of their own for a person (the admin command checks more). */
export async function endpointById(deps: WebhookDeps, endpointId: string, actor: Actor) {
  if (!isIdOf('endpoint', endpointId)) throw new UsageError(`${endpointId} is not an endpoint id (whe_…)`);
  const endpoint = await deps.prisma.webhookEndpoint.findFirst({
    where: { id: endpointId, ...inActorsWorkspace(actor) },
  });
  if (!endpoint) throw new UsageError(`no webhook endpoint ${endpointId}`, 'not_found');
  return endpoint;
}

export function createEndpoint(
  deps: WebhookDeps,
  input: {
    workspaceId: string;
    url: string;
    eventTypes: EventType[];
    description?: string | null;
    actor: Actor;
    formId?: string;
  },
) {
  return adminCommand(deps.prisma, input, { ...MANAGE, feature: 'webhooks' }, async ({ tx, audit }) => {
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
  });
}

export async function listEndpoints(deps: WebhookDeps, workspaceId: string): Promise<EndpointView[]> {
  return (await webhookRepository(workspaceScopes(deps.pool)(workspaceId)).endpoints()).map(view);
}

export async function revealSecret(deps: WebhookDeps, endpointId: string, actor: Actor) {
  const endpoint = await endpointById(deps, endpointId, actor);
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

/**
 * A new secret; the old one keeps signing beside it for ROTATION_GRACE_HOURS so receivers can switch
 * without losing deliveries.
 */
export async function rotateSecret(deps: WebhookDeps, endpointId: string, actor: Actor) {
  const endpoint = await endpointById(deps, endpointId, actor);
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
  const endpoint = await endpointById(deps, endpointId, actor);
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

const ENABLE = sqlStatement<never, { endpointId: string }>(
  'webhooks.enable',
  (param) => `UPDATE webhook_endpoints SET enabled = true, enabled_at = now(), disabled_reason = NULL,
    failing_since = NULL WHERE id = ${param('endpointId')}`,
);
const DISABLE = sqlStatement<never, { endpointId: string; reason: string | null }>(
  'webhooks.disable',
  (param) => `UPDATE webhook_endpoints SET enabled = false, disabled_reason = ${param('reason')}
    WHERE id = ${param('endpointId')}`,
);
const FAIL_PENDING = sqlStatement<never, { endpointId: string; error: string }>(
  'webhooks.fail-pending',
  (param) => `UPDATE webhook_deliveries SET status = 'failed', finished_at = now(), next_attempt_at = NULL,
    last_error = ${param('error')} WHERE endpoint_id = ${param('endpointId')} AND status = 'pending'`,
);

/** The state change itself, shared with the worker (410 Gone, five days of failures). */
export async function applyEnabled(db: SqlRunner, endpointId: string, enabled: boolean, reason: string | null) {
  if (enabled) {
    await runStatement(db, ENABLE, { endpointId });
    return;
  }
  await runStatement(db, DISABLE, { endpointId, reason });
  await runStatement(db, FAIL_PENDING, { endpointId, error: `endpoint disabled: ${reason}` });
}

export async function listAttempts(
  deps: WebhookDeps,
  endpointId: string,
  actor: Actor,
  limit = 100,
): Promise<AttemptView[]> {
  const endpoint = await endpointById(deps, endpointId, actor);
  await authorizeActor(deps.prisma, endpoint.workspaceId, actor, { what: 'see webhook attempts' });
  return webhookRepository(workspaceScopes(deps.pool)(endpoint.workspaceId)).attempts(endpoint.id, limit);
}
