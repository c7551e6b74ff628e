// A Prisma client that can only see one workspace: every operation on a tenant model
// gets `workspaceId` forced into its filter (and its data on create). Resolvers use
// only this client, so a forgotten check in a resolver cannot leak another tenant's rows.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from './generated/prisma/client.js';

const TENANT_MODELS = new Set([
  'ApiKey',
  'Client',
  'ProviderConnection',
  'Report',
  'AiProject',
  'Scan',
  'Signal',
  'WebhookEndpoint',
  'AuditLogEntry',
  'Membership',
]);

const FILTERED_OPERATIONS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'delete',
  'deleteMany',
]);

export function scopeToWorkspace(prisma: PrismaClient, workspaceId: string) {
  return prisma.$extends({
    name: 'workspace-scope',
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (!TENANT_MODELS.has(model)) return query(args);
          const scopedArgs = { ...(args as Record<string, unknown>) };
          if (FILTERED_OPERATIONS.has(operation)) {
            scopedArgs.where = { ...(scopedArgs.where as object | undefined), workspaceId };
          } else if (operation === 'create') {
            scopedArgs.data = { ...(scopedArgs.data as object), workspaceId };
          } else if (operation === 'createMany') {
            const data = scopedArgs.data as object | object[];
            scopedArgs.data = Array.isArray(data) ? data.map((row) => ({ ...row, workspaceId })) : { ...data, workspaceId };
          } else {
            throw new Error(`Operation ${operation} on ${model} is not allowed through a workspace-scoped client`);
          }
          return query(scopedArgs as typeof args);
        },
      },
    },
  }) as unknown as PrismaClient;
}

export type ScopedClientFactory = (workspaceId: string) => PrismaClient;

/** Extending a client costs a little; one extended client per active workspace is kept. */
export function scopedClientFactory(prisma: PrismaClient, max = 1_000): ScopedClientFactory {
  const cache = new LRUCache<string, PrismaClient>({ max });
  return (workspaceId) => {
    let scoped = cache.get(workspaceId);
    if (!scoped) {
      scoped = scopeToWorkspace(prisma, workspaceId);
      cache.set(workspaceId, scoped);
    }
    return scoped;
  };
}
