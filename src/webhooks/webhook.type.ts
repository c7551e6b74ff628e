// Webhook endpoints and their attempts in the graph, for owners and admins (the web app, MCP).
// Secrets are never part of it.
import { bounded } from '../graphql/cost.js';
import { boundedIntArg, boundedListCost } from '../graphql/bounded-int.js';
import { intBounds, withinBounds } from '../errors/index.js';
import { builder } from '../graphql/builder.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { MAX_ENDPOINTS_PER_WORKSPACE } from './endpoints.js';
import { webhookRepository, type AttemptView, type EndpointRow, type EventRow } from './webhook-repository.js';

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

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: [WebhookEndpointType],
    description: "The workspace's webhook endpoints (owners and admins).",
    authScopes: { admin: true },
    complexity: bounded(MAX_ENDPOINTS_PER_WORKSPACE),
    extensions: GRAPH_ONLY,
    resolve: (_root, _args, ctx) => webhookRepository(ctx.workspace).endpoints(),
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
      webhookRepository(ctx.workspace).attempts(
        String(args.endpointId),
        withinBounds(args.first, ATTEMPTS_SHOWN, 'first'),
      ),
  }),
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
    resolve: (_root, args, ctx) => webhookRepository(ctx.workspace).event(String(args.id)),
  }),
);
