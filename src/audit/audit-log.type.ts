// The audit log in the graph, for owners and admins: who changed what, newest first.
import { builder } from '../graphql/builder.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';

interface AuditRow {
  id: string;
  actor: string;
  actorEmail: string | null;
  action: string;
  target: string;
  details: Record<string, unknown>;
  createdAt: Date;
}

const AuditEntryType = builder.objectRef<AuditRow>('AuditEntry').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    actor: t.exposeString('actor', { description: 'A user id, "operator" (the CLI) or "system" (the webhook worker).' }),
    actorEmail: t.exposeString('actorEmail', { nullable: true }),
    action: t.exposeString('action'),
    target: t.exposeString('target'),
    details: t.field({ type: 'JSONObject', resolve: (entry) => entry.details }),
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
    resolve: (_root, args, ctx) =>
      ctx.workspace.rows<AuditRow>(
        'audit.list',
        `SELECT a.id, a.actor, u.email AS "actorEmail", a.action, a.target, a.details, a.created_at AS "createdAt"
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor WHERE a.workspace_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
        [Math.min(Math.max(args.first ?? 50, 1), 500)],
      ),
  }),
);
