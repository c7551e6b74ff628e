// The audit log in the graph, for owners and admins: who changed what, newest first.
import { sizedList } from '../graphql/cost.js';
import { builder } from '../graphql/builder.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { AUDIT_LOG, type AuditView } from './audit-log.js';

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
    args: { first: t.arg.int({ required: false, defaultValue: 50 }) },
    complexity: (args) => sizedList(args.first, 50, 500),
    resolve: (_root, args, ctx) => ctx.workspace.rows(AUDIT_LOG, [Math.min(Math.max(args.first ?? 50, 1), 500)]),
  }),
);
