// Per-request DataLoaders: a list of N items asks the database once per relation, not N times.
import DataLoader from 'dataloader';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Provider } from '../db/generated/prisma/enums.js';

export interface Loaders {
  connectedProviders: DataLoader<string, Provider[]>;
}

export function createLoaders(db: PrismaClient): Loaders {
  return {
    connectedProviders: new DataLoader(async (clientIds) => {
      const rows = await db.providerConnection.findMany({
        where: { clientId: { in: [...clientIds] } },
        select: { clientId: true, provider: true },
        orderBy: { provider: 'asc' },
      });
      const byClient = new Map<string, Provider[]>();
      for (const row of rows) byClient.set(row.clientId, [...(byClient.get(row.clientId) ?? []), row.provider]);
      return clientIds.map((id) => byClient.get(id) ?? []);
    }),
  };
}
