// Webhook endpoints and their attempts in the graph, for owners and admins (the web app, MCP).
// Secrets are never part of it.
import { builder } from '../graphql/builder.js';
import { tenantStatement } from '../db/tenant-sql.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { ATTEMPTS, type AttemptView } from './endpoints.js';

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
}

const WebhookEndpointType = builder.objectRef<EndpointRow>('WebhookEndpoint').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    eventTypes: t.exposeStringList('eventTypes'),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', { nullable: true }),
    failingSince: t.expose('failingSince', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const WebhookAttemptType = builder.objectRef<AttemptView>('WebhookAttempt').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeString('eventId'),
    eventType: t.exposeString('eventType'),
    attempt: t.exposeInt('attempt'),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    latencyMs: t.exposeInt('latencyMs'),
    error: t.exposeString('error', { nullable: true }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ENDPOINTS = tenantStatement<EndpointRow>(
  'webhooks.endpoints',
  (workspace) => `SELECT id, url, description, event_types AS "eventTypes", enabled, disabled_reason AS "disabledReason", failing_since AS "failingSince", created_at AS "createdAt"
    FROM webhook_endpoints WHERE ${workspace()} ORDER BY created_at DESC`,
);

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: [WebhookEndpointType],
    description: 'The workspace\'s webhook endpoints (owners and admins).',
    authScopes: { admin: true },
    extensions: GRAPH_ONLY,
    resolve: (_root, _args, ctx) =>
      ctx.workspace.rows(ENDPOINTS),
  }),
);

builder.queryField('webhookAttempts', (t) =>
  t.field({
    type: [WebhookAttemptType],
    description: 'The newest delivery attempts of one endpoint (owners and admins).',
    authScopes: { admin: true },
    extensions: GRAPH_ONLY,
    args: { endpointId: t.arg.id({ required: true }), first: t.arg.int({ required: false, defaultValue: 50 }) },
    resolve: (_root, args, ctx) =>
      ctx.workspace.rows(ATTEMPTS, [String(args.endpointId), Math.min(Math.max(args.first ?? 50, 1), 500)]),
  }),
);
