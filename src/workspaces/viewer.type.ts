import { builder } from '../graphql/builder.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { bucketPolicies, hasScope, READ_SCOPE, type Principal } from '../auth/index.js';
import { workspaceRepository, type WorkspaceShape } from './workspace-repository.js';
import { PLANS } from './plans.js';
import { searchWorkspace, type SearchHit } from './search.js';
import { intBounds, invalidParameter, withinBounds } from '../errors/index.js';
import { boundedIntArg, boundedListCost } from '../graphql/bounded-int.js';

const PlanEnum = builder.enumType('Plan', { values: PLANS });
const CredentialEnum = builder.enumType('CredentialKind', {
  values: { API_KEY: {}, SESSION: {}, OAUTH: { description: 'An MCP client with a grant a person consented to.' } },
});

const WorkspaceType = builder.objectRef<WorkspaceShape>('Workspace').implement({
  description: 'The workspace the caller reads.',
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    plan: t.expose('plan', { type: PlanEnum }),
    timezone: t.exposeString('timezone', { description: 'Default IANA time zone of new reports.' }),
    mcpWriteActions: t.exposeBoolean('mcpWriteActions', {
      description: 'Whether MCP clients may use write tools (an admin switches it in settings).',
    }),
  }),
});

interface LimitsShape {
  listRowCap: number;
  metricsRowCap: number;
  rateLimit: { burst: number; perSecond: number } | null;
}

const RateLimitType = builder.objectRef<NonNullable<LimitsShape['rateLimit']>>('RateLimit').implement({
  description: "The v1 token bucket of the workspace's plan, per API key.",
  fields: (t) => ({ burst: t.exposeInt('burst'), perSecond: t.exposeFloat('perSecond') }),
});

const LimitsType = builder.objectRef<LimitsShape>('Limits').implement({
  description: 'How much one call returns, and how often API keys may call.',
  fields: (t) => ({
    listRowCap: t.exposeInt('listRowCap', { description: 'Rows of a list before it is truncated.' }),
    metricsRowCap: t.exposeInt('metricsRowCap', {
      description: 'Rows of AI-visibility metrics before they are truncated.',
    }),
    rateLimit: t.expose('rateLimit', {
      type: RateLimitType,
      nullable: true,
      description: 'Null on plans without API access.',
    }),
  }),
});

const ViewerType = builder.objectRef<{ workspace: WorkspaceShape }>('Viewer').implement({
  description: 'Who is calling: the workspace, its plan and what the credential may read.',
  fields: (t) => ({
    workspace: t.expose('workspace', { type: WorkspaceType }),
    credential: t.field({
      type: CredentialEnum,
      resolve: (_viewer, _args, ctx) => ctx.principal.kind.toUpperCase() as Uppercase<Principal['kind']>,
    }),
    scopes: t.field({ type: ['Scope'], resolve: (_viewer, _args, ctx) => ctx.principal.scopes }),
    limits: t.field({
      type: LimitsType,
      resolve: (viewer, _args, ctx) => {
        const bucket = bucketPolicies(ctx.config)[viewer.workspace.plan];
        return {
          listRowCap: ctx.config.LIST_ROW_CAP,
          metricsRowCap: ctx.config.METRICS_ROW_CAP,
          rateLimit: bucket ? { burst: bucket.capacity, perSecond: bucket.refillPerSecond } : null,
        };
      },
    }),
    role: t.string({
      nullable: true,
      description: "The member's role when signed in with a session; null for an API key.",
      resolve: (_viewer, _args, ctx) => (ctx.principal.kind === 'api_key' ? null : ctx.principal.role),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerType,
    description: 'The caller: workspace, plan, scopes, and role when signed in.',
    extensions: GRAPH_ONLY,
    resolve: async (_root, _args, ctx) => ({ workspace: await workspaceRepository(ctx.workspace).current() }),
  }),
);

const SearchHitType = builder.objectRef<SearchHit>('SearchHit').implement({
  description: 'Something in the workspace whose name matches: its kind, id and name.',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'client, report, project or prompt.' }),
    id: t.exposeID('id'),
    name: t.exposeString('name', { description: "The name (a prompt's text)." }),
    parentId: t.exposeString('parentId', {
      nullable: true,
      description: "A report's or project's client, a prompt's project.",
    }),
  }),
});

/** Hits of each kind a search returns. */
const SEARCH_HITS_LIMIT = intBounds(1, 50, 10);

builder.queryField('search', (t) =>
  t.field({
    type: [SearchHitType],
    description:
      'Clients, reports, AI-visibility projects and tracked prompts whose name contains the query ' +
      '(case-insensitive), up to `limit` of each kind.',
    extensions: GRAPH_ONLY,
    args: {
      query: t.arg.string({ required: true, description: '2–100 characters, matched literally.' }),
      limit: boundedIntArg(t.arg, SEARCH_HITS_LIMIT, 'Hits per kind'),
    },
    // Up to `limit` hits of each of the four kinds.
    complexity: (args) => ({ field: 1, multiplier: 4 * boundedListCost(args.limit, SEARCH_HITS_LIMIT).multiplier }),
    resolve: async (_root, args, ctx) => {
      const query = args.query.trim();
      if (query.length < 2 || query.length > 100) throw invalidParameter('query', 'query has 2–100 characters.');
      const limit = withinBounds(args.limit, SEARCH_HITS_LIMIT);
      // Each kind is shown only to a credential that may read it.
      return (await searchWorkspace(ctx.workspace, query, limit)).filter((hit) =>
        hasScope(ctx.principal, READ_SCOPE[hit.kind]),
      );
    },
  }),
);
