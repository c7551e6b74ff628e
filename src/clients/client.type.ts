import type { ClientRow } from './repository.js';
import { builder } from '../graphql/builder.js';
import { ProviderEnum } from '../graphql/enums.js';
import { cappedList, listEnvelope } from '../graphql/envelope.js';
import { NodeInterface, registerNodeKind } from '../graphql/node.js';

export const ClientType = builder.objectRef<ClientRow>('Client').implement({
  description: 'A customer of the workspace.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    currency: t.exposeString('currency', {
      nullable: true,
      description:
        "ISO 4217 code of the client's money figures (cost, CPC, CPM, conversion value), as its ad accounts report " +
        'them; null until set.',
    }),
    connectedProviders: t.expose('connectedProviders', {
      type: [ProviderEnum],
      description: 'Providers connected for this client.',
    }),
    reportCount: t.exposeInt('reportCount', { description: 'Reports tied to this client, archived ones excluded.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

registerNodeKind('client', {
  typeName: 'Client',
  load: (ctx, id) => ctx.loaders.client.load(id),
});

const ClientList = listEnvelope('ClientList', ClientType, "The workspace's clients, newest first.");

builder.queryField('clients', (t) =>
  t.field({
    type: ClientList,
    description: "The workspace's clients with connected providers and report counts, newest first.",
    authScopes: { scope: 'clients:read' },
    resolve: (_root, _args, ctx) =>
      cappedList(
        ctx.config.LIST_ROW_CAP,
        (take) => ctx.repositories.clients.list(take),
        () => ctx.repositories.clients.count(),
      ),
  }),
);
