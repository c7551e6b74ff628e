// The one way tenant data is read. A WorkspaceScope is created per request from the
// principal, and every read of a tenant's rows — hand-written SQL or Prisma — goes through it:
// - SQL: `rows()` passes the workspace id as $1, and refuses a statement whose text does not
//   filter on `workspace_id = $1` (checked once per statement text per process). Tables without
//   their own workspace_id (metric_facts) are reached through a parent that has one.
// - Prisma: `prisma` forces workspace_id into the filter of every operation on a tenant model.
// Repositories and engines receive a scope, never a pool or an id found earlier, so a
// forgotten check in a resolver cannot leak another workspace's rows.
import type pg from 'pg';
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from './generated/prisma/client.js';

export interface WorkspaceScope {
  workspaceId: string;
  /** Runs a named (prepared) statement whose $1 is the bound workspace id; `name: null` runs it unnamed. */
  rows<T extends pg.QueryResultRow>(name: string | null, text: string, values?: readonly unknown[]): Promise<T[]>;
  /** A Prisma client that can only see this workspace (Pothos' client). */
  prisma: PrismaClient;
}

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

function scopePrisma(prisma: PrismaClient, workspaceId: string): PrismaClient {
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
            throw new Error(`Operation ${operation} on ${model} is not allowed through a workspace scope`);
          }
          return query(scopedArgs as typeof args);
        },
      },
    },
  }) as unknown as PrismaClient;
}

/** Statement texts already checked for the workspace filter; each is checked once per process. */
const checkedStatements = new Set<string>();

// The workspaces table is the one tenant table keyed by the workspace id itself.
const BOUND = /workspace_id = \$1\b|FROM workspaces WHERE id = \$1\b/;

function assertBound(name: string | null, text: string): void {
  if (checkedStatements.has(text)) return;
  if (!BOUND.test(text)) throw new Error(`statement ${name ?? text.slice(0, 60)} is not bound to the workspace (workspace_id = $1)`);
  checkedStatements.add(text);
}

export type WorkspaceScopeFactory = (workspaceId: string) => WorkspaceScope;

/**
 * Scopes for a process: SQL on `pool` (the read pool: a replica when configured), Prisma on
 * `prisma`. Extending a Prisma client costs a little, so one per active workspace is kept.
 */
export function workspaceScopes(pool: pg.Pool, prisma: PrismaClient, maxCachedWorkspaces = 1_000): WorkspaceScopeFactory {
  const prismaByWorkspace = new LRUCache<string, PrismaClient>({ max: maxCachedWorkspaces });
  const scopedPrisma = (workspaceId: string) => {
    let scoped = prismaByWorkspace.get(workspaceId);
    if (!scoped) prismaByWorkspace.set(workspaceId, (scoped = scopePrisma(prisma, workspaceId)));
    return scoped;
  };
  return (workspaceId) => ({
    workspaceId,
    async rows(name, text, values = []) {
      assertBound(name, text);
      const query = name ? { name, text, values: [workspaceId, ...values] } : { text, values: [workspaceId, ...values] };
      return (await pool.query(query)).rows;
    },
    get prisma() {
      return scopedPrisma(workspaceId);
    },
  });
}
