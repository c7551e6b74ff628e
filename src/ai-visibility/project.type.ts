import { builder } from '../graphql/builder.js';
import { AiModelEnum } from '../graphql/enums.js';
import { cappedList, listEnvelope } from '../graphql/envelope.js';

export const ProjectType = builder.prismaObject('AiProject', {
  name: 'AiVisibilityProject',
  description: 'An AI-visibility project: a brand tracked across AI models and markets.',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    clientId: t.exposeString('clientId', { nullable: true }),
    brand: t.exposeString('brand'),
    competitors: t.exposeStringList('competitors'),
    models: t.field({ type: [AiModelEnum], resolve: (p) => p.models as never[] }),
    locales: t.exposeStringList('locales', { description: 'BCP 47 tags; each is its own population.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ProjectList = listEnvelope('AiVisibilityProjectList', ProjectType, 'The workspace\'s AI-visibility projects, newest first.');

builder.queryField('aiVisibilityProjects', (t) =>
  t.field({
    type: ProjectList,
    description: 'The workspace\'s AI-visibility projects, newest first.',
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
