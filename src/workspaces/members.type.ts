// The workspace's people and API keys in the graph, for owners and admins (never secrets).
import { builder } from '../graphql/builder.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { KEY_PREFIX } from '../auth/index.js';
import { workspaceRepository, type ApiKeyRow, type ConnectedAppRow, type MemberRow } from './workspace-repository.js';

const MemberType = builder.objectRef<MemberRow>('Member').implement({
  fields: (t) => ({
    userId: t.exposeID('userId'),
    email: t.exposeString('email'),
    name: t.exposeString('name', { nullable: true }),
    role: t.exposeString('role', { description: 'owner, admin or member.' }),
    joinedAt: t.expose('joinedAt', { type: 'DateTime' }),
  }),
});

const ApiKeyType = builder.objectRef<ApiKeyRow>('ApiKey').implement({
  description: 'An API key of the workspace: never its secret, which only its creator saw once.',
  fields: (t) => ({
    id: t.exposeID('id'),
    prefix: t.string({
      description: 'How the key starts (sgb_live_<id>), to recognise it.',
      resolve: (key) => `${KEY_PREFIX}${key.id}`,
    }),
    name: t.exposeString('name'),
    scopes: t.expose('scopes', { type: ['Scope'] }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Written at most once a minute.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('members', (t) =>
  t.field({
    type: [MemberType],
    description: "The workspace's members and their roles (owners and admins).",
    authScopes: { admin: true },
    extensions: GRAPH_ONLY,
    resolve: (_root, _args, ctx) => workspaceRepository(ctx.workspace).members(),
  }),
);

builder.queryField('apiKeys', (t) =>
  t.field({
    type: [ApiKeyType],
    description: "The workspace's API keys, newest first, revoked ones included (owners and admins; never secrets).",
    authScopes: { admin: true },
    extensions: GRAPH_ONLY,
    resolve: (_root, _args, ctx) => workspaceRepository(ctx.workspace).apiKeys(),
  }),
);

const ConnectedAppType = builder.objectRef<ConnectedAppRow>('ConnectedApp').implement({
  description: 'An MCP client a person connected to the workspace (their OAuth grant).',
  fields: (t) => ({
    grantId: t.exposeID('grantId'),
    clientId: t.exposeString('clientId'),
    clientName: t.exposeString('clientName'),
    userEmail: t.exposeString('userEmail', { nullable: true, description: 'Who consented.' }),
    connectedAt: t.expose('connectedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryField('connectedApps', (t) =>
  t.field({
    type: [ConnectedAppType],
    description:
      'The MCP clients connected to the workspace, newest first (owners and admins); disconnect them in Settings.',
    authScopes: { admin: true },
    extensions: GRAPH_ONLY,
    resolve: (_root, _args, ctx) => workspaceRepository(ctx.workspace).connectedApps(),
  }),
);
