import type { Client } from '../db/generated/prisma/client.js';
import { builder } from '../graphql/builder.js';
import { ProviderEnum } from '../graphql/enums.js';
import { cappedList, listEnvelope } from '../graphql/envelope.js';
import { NodeInterface, registerNodeKind } from '../graphql/node.js';

export const ClientType = builder.objectRef<Client>('Client').implement({
  description: 'A customer of the workspace.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    connectedProviders: t.field({
      type: [ProviderEnum],
      description: 'Providers connected for this client.',
      resolve: async (client, _args, ctx) => (await ctx.loaders.clientSummary.load(client.id)).connectedProviders,
    }),
    reportCount: t.int({
      description: 'Reports tied to this client, archived ones excluded.',
      resolve: async (client, _args, ctx) => (await ctx.loaders.clientSummary.load(client.id)).reportCount,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

registerNodeKind('client', { typeName: 'Client', scope: 'clients:read', load: (ctx, id) => ctx.loaders.client.load(id) });

const ClientList = listEnvelope('ClientList', ClientType, 'The workspace\'s clients, newest first.');

builder.queryField('clients', (t) =>
  t.field({
    type: ClientList,
    description: 'The workspace\'s clients with connected providers and report counts, newest first.',
    authScopes: { scope: 'clients:read' },
    resolve: (_root, _args, ctx) =>
      cappedList(
        ctx.config.LIST_ROW_CAP,
        async (take) => {
          const clients = await ctx.repositories.clients.list(take);
          // The summaries came with the list: the fields below find them in the loader.
          for (const client of clients) ctx.loaders.clientSummary.prime(client.id, client.summary);
          return clients;
        },
        () => ctx.repositories.clients.count(),
      ),
  }),
);
