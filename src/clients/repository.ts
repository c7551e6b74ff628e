import type { Client } from '../db/generated/prisma/client.js';
import type { Provider } from '../db/generated/prisma/enums.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { inAskedOrder } from '../db/per-parent.js';
import { tenantStatement, type WorkspaceBinding } from '../db/tenant-sql.js';

/** A client as every read gives it: its row with the providers connected and its live report count. */
export type ClientRow = Client & {
  connectedProviders: Provider[];
  reportCount: number;
};

// The summary comes with every row (one statement for the v1 list, and the GraphQL fields are
// read in place: a resolver per client and field cost ~1 KB of allocation each).
const COLUMNS = (workspace: WorkspaceBinding) => `c.id, c.workspace_id AS "workspaceId", c.name, c.currency,
  c.created_at AS "createdAt",
  coalesce((SELECT array_agg(p.provider::text ORDER BY p.provider) FROM provider_connections p
    WHERE p.client_id = c.id AND ${workspace('p')}), '{}') AS "connectedProviders",
  (SELECT count(*)::int FROM reports r
    WHERE r.client_id = c.id AND ${workspace('r')} AND r.archived_at IS NULL) AS "reportCount"`;

const LIST = tenantStatement<ClientRow, { take: number }>(
  'clients.list',
  (workspace, param) => `SELECT ${COLUMNS(workspace)} FROM clients c WHERE ${workspace('c')} AND c.archived_at IS NULL
    ORDER BY c.created_at DESC, c.id DESC LIMIT ${param('take')}`,
);
const COUNT = tenantStatement<{ n: number }>(
  'clients.count',
  (workspace) => `SELECT count(*)::int AS n FROM clients WHERE ${workspace()} AND archived_at IS NULL`,
);
const BY_IDS = tenantStatement<ClientRow, { ids: readonly string[] }>(
  'clients.by-ids',
  (workspace, param) => `SELECT ${COLUMNS(workspace)} FROM clients c
    WHERE ${workspace('c')} AND c.archived_at IS NULL AND c.id = ANY(${param('ids')}::text[])`,
);

export function clientRepository(scope: WorkspaceScope) {
  return {
    /** The newest clients. */
    list: (take: number): Promise<ClientRow[]> => scope.rows(LIST, { take }),
    count: async () => (await scope.rows(COUNT))[0]!.n,
    /** Clients of the workspace by id, in the order asked; null where there is none. */
    byIds: async (ids: readonly string[]): Promise<(ClientRow | null)[]> =>
      inAskedOrder(ids, await scope.rows(BY_IDS, { ids })),
  };
}
