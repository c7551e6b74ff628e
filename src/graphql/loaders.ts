// Per-request DataLoaders: a list of N items asks the database once per relation, not N times.
import DataLoader from 'dataloader';
import type { ClientSummary } from '../clients/repository.js';
import type { Repositories } from './context.js';

export interface Loaders {
  clientSummary: DataLoader<string, ClientSummary>;
}

export function createLoaders(repositories: Repositories): Loaders {
  return {
    clientSummary: new DataLoader((clientIds) => repositories.clients.summaries(clientIds)),
  };
}
