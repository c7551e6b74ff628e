// The audit log in the graph, for owners and admins: who changed what, newest first.
import { builder } from '../graphql/builder.js';
import { boundedIntArg, boundedListCost } from '../graphql/bounded-int.js';
import { intBounds, withinBounds } from '../errors/index.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { auditEntries, type AuditView } from './audit-log.js';

/** Entries per answer, newest first. */
export const AUDIT_ENTRIES = intBounds(1, 500, 50);

const AuditEntryType = builder.objectRef<AuditView>('AuditEntry').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    actor: t.exposeString('actor', {
      description: 'A user id, "operator" (the CLI) or "system" (the webhook worker).',
    }),
    actorEmail: t.exposeString('actorEmail', { nullable: true }),
    action: t.exposeString('action'),
    target: t.exposeString('target'),
    details: t.expose('details', { type: 'JSONObject' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('auditLog', (t) =>
  t.field({
    type: [AuditEntryType],
    description: 'The newest audit entries of the workspace (owners and admins).',
    authScopes: { admin: true },
    extensions: GRAPH_ONLY,
    args: { first: boundedIntArg(t.arg, AUDIT_ENTRIES, 'Entries') },
    complexity: (args) => boundedListCost(args.first, AUDIT_ENTRIES),
    resolve: (_root, args, ctx) => auditEntries(ctx.workspace, withinBounds(args.first, AUDIT_ENTRIES, 'first')),
  }),
);
