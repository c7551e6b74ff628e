import { builder } from '../graphql/builder.js';
import { ProviderEnum } from '../graphql/enums.js';
import { cappedList, listEnvelope } from '../graphql/envelope.js';

export const ClientType = builder.prismaObject('Client', {
  description: 'A customer of the workspace.',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    connectedProviders: t.field({
      type: [ProviderEnum],
      description: 'Providers connected for this client.',
      resolve: (client, _args, ctx) => ctx.loaders.connectedProviders.load(client.id),
    }),
    reportCount: t.relationCount('reports', { description: 'Reports tied to this client, archived ones excluded.', where: { archivedAt: null } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ClientList = listEnvelope('ClientList', ClientType, 'The workspace\'s clients, newest first.');

builder.queryField('clients', (t) =>
  t.field({
    type: ClientList,
    description: 'The workspace\'s clients with connected providers and report counts, newest first.',
    authScopes: { scope: 'clients:read' },
    resolve: (_root, _args, ctx) =>
      cappedList(
        ctx.config.LIST_ROW_CAP,
        (take) => ctx.db.client.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take }),
        () => ctx.db.client.count(),
      ),
  }),
);
