import type { Client } from '../db/generated/prisma/client.js';
import type { Provider } from '../db/generated/prisma/enums.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { inAskedOrder } from '../db/per-parent.js';
import { tenantStatement } from '../db/tenant-sql.js';

export interface ClientSummary {
  connectedProviders: Provider[];
  reportCount: number;
}

const COLUMNS = 'id, workspace_id AS "workspaceId", name, created_at AS "createdAt"';

const LIST = tenantStatement<Client>('clients.list', (workspace) => `SELECT ${COLUMNS} FROM clients WHERE ${workspace()} ORDER BY created_at DESC, id DESC LIMIT $2`);
const COUNT = tenantStatement<{ n: number }>('clients.count', (workspace) => `SELECT count(*)::int AS n FROM clients WHERE ${workspace()}`);
const BY_IDS = tenantStatement<Client>('clients.by-ids', (workspace) => `SELECT ${COLUMNS} FROM clients WHERE ${workspace()} AND id = ANY($2::text[])`);
const SUMMARIES = tenantStatement<{ id: string; providers: Provider[]; report_count: number }>(
  'clients.summaries',
  (workspace) => `SELECT c.id,
     coalesce((SELECT array_agg(p.provider::text ORDER BY p.provider) FROM provider_connections p WHERE p.client_id = c.id AND ${workspace('p')}), '{}') AS providers,
     (SELECT count(*)::int FROM reports r WHERE r.client_id = c.id AND ${workspace('r')} AND r.archived_at IS NULL) AS report_count
   FROM unnest($2::text[]) AS c(id)`,
);

export function clientRepository(scope: WorkspaceScope) {
  return {
    list: (take: number) => scope.rows(LIST, [take]),
    count: async () => (await scope.rows(COUNT))[0]!.n,
    /** Clients of the workspace by id, in the order asked; null where there is none. */
    byIds: async (ids: readonly string[]): Promise<(Client | null)[]> => inAskedOrder(ids, await scope.rows(BY_IDS, [ids])),
    /** Providers and live report counts of many clients in one statement. */
    summaries: async (clientIds: readonly string[]): Promise<ClientSummary[]> => {
      const rows = await scope.rows(SUMMARIES, [clientIds]);
      const byId = new Map(rows.map((row) => [row.id, { connectedProviders: row.providers, reportCount: row.report_count }]));
      return clientIds.map((id) => byId.get(id) ?? { connectedProviders: [], reportCount: 0 });
    },
  };
}
