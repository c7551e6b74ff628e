// Webhook endpoints and their attempts in the graph, for owners and admins (the web app, MCP).
// Secrets are never part of it.
import { bounded } from '../graphql/cost.js';
import { boundedIntArg, boundedListCost } from '../graphql/bounded-int.js';
import { intBounds, withinBounds } from '../errors/index.js';
import { builder } from '../graphql/builder.js';
import { tenantStatement } from '../db/tenant-sql.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { ATTEMPTS, MAX_ENDPOINTS_PER_WORKSPACE, type AttemptView } from './endpoints.js';

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
  (
    workspace,
  ) => `SELECT id, url, description, event_types AS "eventTypes", enabled, disabled_reason AS "disabledReason", failing_since AS "failingSince", created_at AS "createdAt"
    FROM webhook_endpoints WHERE ${workspace()} ORDER BY created_at DESC`,
);

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: [WebhookEndpointType],
    description: "The workspace's webhook endpoints (owners and admins).",
    authScopes: { admin: true },
    complexity: bounded(MAX_ENDPOINTS_PER_WORKSPACE),
    extensions: GRAPH_ONLY,
    resolve: (_root, _args, ctx) => ctx.workspace.rows(ENDPOINTS),
  }),
);

/** Attempts per answer, newest first. */
const ATTEMPTS_SHOWN = intBounds(1, 500, 50);

builder.queryField('webhookAttempts', (t) =>
  t.field({
    type: [WebhookAttemptType],
    description: 'The newest delivery attempts of one endpoint (owners and admins).',
    authScopes: { admin: true },
    extensions: GRAPH_ONLY,
    args: { endpointId: t.arg.id({ required: true }), first: boundedIntArg(t.arg, ATTEMPTS_SHOWN, 'Attempts') },
    complexity: (args) => boundedListCost(args.first, ATTEMPTS_SHOWN),
    resolve: (_root, args, ctx) =>
      ctx.workspace.rows(ATTEMPTS, [String(args.endpointId), withinBounds(args.first, ATTEMPTS_SHOWN, 'first')]),
  }),
);

interface EventRow {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  deliveries: {
    endpointId: string;
    status: string;
    attemptCount: number;
    lastResponseStatus: number | null;
    lastError: string | null;
    nextAttemptAt: string | null;
    finishedAt: string | null;
  }[];
}

// The event and each endpoint's delivery of it (the deliveries hang on the workspace's event).
const EVENT = tenantStatement<EventRow>(
  'webhooks.event',
  (workspace) => `SELECT e.id, e.type, e.payload, e.created_at AS "createdAt",
      coalesce((SELECT jsonb_agg(jsonb_build_object('endpointId', d.endpoint_id, 'status', d.status, 'attemptCount', d.attempt_count, 'lastResponseStatus', d.last_response_status,
                  'lastError', d.last_error, 'nextAttemptAt', d.next_attempt_at, 'finishedAt', d.finished_at) ORDER BY d.created_at)
                FROM webhook_deliveries d WHERE d.event_id = e.id), '[]'::jsonb) AS deliveries
    FROM webhook_events e WHERE ${workspace('e')} AND e.id = $2`,
);

const DeliveryType = builder.objectRef<EventRow['deliveries'][number]>('WebhookDelivery').implement({
  fields: (t) => ({
    endpointId: t.exposeString('endpointId'),
    status: t.exposeString('status', { description: 'pending, succeeded or failed.' }),
    attemptCount: t.exposeInt('attemptCount'),
    lastResponseStatus: t.exposeInt('lastResponseStatus', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    nextAttemptAt: t.exposeString('nextAttemptAt', { nullable: true }),
    finishedAt: t.exposeString('finishedAt', { nullable: true }),
  }),
});

const WebhookEventType = builder.objectRef<EventRow>('WebhookEvent').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    type: t.exposeString('type'),
    payload: t.expose('payload', {
      type: 'JSONObject',
      description: 'The body receivers get (type, timestamp, data).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveries: t.expose('deliveries', {
      type: [DeliveryType],
      description: 'One per endpoint that receives it.',
      complexity: bounded(MAX_ENDPOINTS_PER_WORKSPACE),
    }),
  }),
});

builder.queryField('webhookEvent', (t) =>
  t.field({
    type: WebhookEventType,
    nullable: true,
    description:
      "One webhook event with its payload and each endpoint's delivery (owners and admins); null when there is none.",
    authScopes: { admin: true },
    extensions: GRAPH_ONLY,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await ctx.workspace.rows(EVENT, [String(args.id)]))[0] ?? null,
  }),
);
