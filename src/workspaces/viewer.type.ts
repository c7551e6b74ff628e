import { builder } from '../graphql/builder.js';
import { tenantStatement } from '../db/tenant-sql.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { SCOPES } from '../auth/index.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import { PLANS } from './service.js';

interface WorkspaceShape {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  timezone: string;
  mcpWriteActions: boolean;
}

const PlanEnum = builder.enumType('Plan', { values: PLANS });
const ScopeEnum = builder.enumType('Scope', { values: Object.fromEntries(SCOPES.map((scope) => [scope.replace(':', '_').toUpperCase(), { value: scope }])) });
const CredentialEnum = builder.enumType('CredentialKind', { values: { API_KEY: { value: 'api_key' }, SESSION: { value: 'session' }, OAUTH: { value: 'oauth', description: 'An MCP client with a grant a person consented to.' } } });

const WorkspaceType = builder.objectRef<WorkspaceShape>('Workspace').implement({
  description: 'The workspace the caller reads.',
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    plan: t.field({ type: PlanEnum, resolve: (w) => w.plan }),
    timezone: t.exposeString('timezone', { description: 'Default IANA time zone of new reports.' }),
    mcpWriteActions: t.exposeBoolean('mcpWriteActions', { description: 'Whether MCP clients may use write tools (an admin switches it in settings).' }),
  }),
});

const ViewerType = builder.objectRef<{ workspace: WorkspaceShape }>('Viewer').implement({
  description: 'Who is calling: the workspace, its plan and what the credential may read.',
  fields: (t) => ({
    workspace: t.field({ type: WorkspaceType, resolve: (viewer) => viewer.workspace }),
    credential: t.field({ type: CredentialEnum, resolve: (_viewer, _args, ctx) => ctx.principal.kind }),
    scopes: t.field({ type: [ScopeEnum], resolve: (_viewer, _args, ctx) => [...ctx.principal.scopes] }),
    role: t.string({ nullable: true, description: 'The member\'s role when signed in with a session; null for an API key.', resolve: (_viewer, _args, ctx) => (ctx.principal.kind === 'api_key' ? null : ctx.principal.role) }),
  }),
});

// The workspaces table is keyed by the workspace id itself: its binding is `id = $1`.
const CURRENT_WORKSPACE = tenantStatement<WorkspaceShape>('workspaces.current', (workspace) => `SELECT id, slug, name, plan, timezone, mcp_write_actions AS "mcpWriteActions" FROM workspaces WHERE ${workspace('workspaces')}`);

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerType,
    description: 'The caller: workspace, plan, scopes, and role when signed in.',
    extensions: GRAPH_ONLY,
    resolve: async (_root, _args, ctx) => {
      const [workspace] = await ctx.workspace.rows(CURRENT_WORKSPACE);
      return { workspace: workspace! };
    },
  }),
);
