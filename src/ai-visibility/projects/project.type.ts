import { builder } from '../../graphql/builder.js';
import { AiModelEnum } from '../../graphql/enums.js';
import { cappedList, listEnvelope } from '../../graphql/envelope.js';
import { NodeInterface, registerNodeKind } from '../../graphql/node.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { ClientType } from '../../clients/client.type.js';
import type { ProjectRow } from './project-repository.js';
import type { CompetitorDomains } from '../sources/domains.js';
import { bounded } from '../../graphql/cost.js';
import { MAX_ROWS } from '../common/read-rows.js';

const CompetitorDomainsType = builder.objectRef<CompetitorDomains>('AiVisibilityCompetitorDomains').implement({
  description: "A tracked competitor's own domains: its citations are marked as that competitor's.",
  fields: (t) => ({ name: t.exposeString('name'), domains: t.exposeStringList('domains') }),
});

export const ProjectType = builder.objectRef<ProjectRow>('AiVisibilityProject').implement({
  description: 'An AI-visibility project: a brand tracked across AI models and markets.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    clientId: t.exposeString('clientId', { nullable: true }),
    brand: t.exposeString('brand'),
    competitors: t.exposeStringList('competitors'),
    models: t.expose('models', { type: [AiModelEnum] }),
    locales: t.exposeStringList('locales', { description: 'BCP 47 tags; each is its own population.' }),
    domains: t.exposeStringList('domains', {
      description: "The brand's own registrable domains: citations of these are owned.",
    }),
    competitorDomains: t.expose('competitorDomains', {
      type: [CompetitorDomainsType],
      complexity: bounded(MAX_ROWS.competitors),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    client: t.field({
      type: ClientType,
      nullable: true,
      description: 'The client this project belongs to; null for a workspace-wide project.',
      authScopes: { scope: 'clients:read' },
      extensions: GRAPH_ONLY,
      resolve: (project, _args, ctx) => (project.clientId ? ctx.loaders.client.load(project.clientId) : null),
    }),
  }),
});

registerNodeKind('project', {
  typeName: 'AiVisibilityProject',
  load: (ctx, id) => ctx.loaders.project.load(id),
});

const ProjectList = listEnvelope(
  'AiVisibilityProjectList',
  ProjectType,
  "The workspace's AI-visibility projects, newest first.",
);

builder.queryField('aiVisibilityProjects', (t) =>
  t.field({
    type: ProjectList,
    description: "The workspace's AI-visibility projects, newest first.",
    authScopes: { scope: 'ai_visibility:read' },
    args: { clientId: t.arg({ type: 'ClientId', required: false, description: 'Only projects of this client.' }) },
    resolve: (_root, args, ctx) =>
      cappedList(
        ctx.config.LIST_ROW_CAP,
        (take) => ctx.repositories.projects.list(args.clientId ?? null, take),
        () => ctx.repositories.projects.count(args.clientId ?? null),
      ),
  }),
);

builder.objectField(ClientType, 'aiVisibilityProjects', (t) =>
  t.field({
    type: ProjectList,
    description: "This client's AI-visibility projects, newest first, capped like the projects list.",
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    resolve: (client, _args, ctx) => ctx.loaders.projectsOfClient.load(client.id),
  }),
);
