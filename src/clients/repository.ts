import type { Client } from '../db/generated/prisma/client.js';
import type { Provider } from '../db/generated/prisma/enums.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { inAskedOrder } from '../db/per-parent.js';
import { tenantStatement, type WorkspaceBinding } from '../db/tenant-sql.js';

export interface ClientSummary {
  connectedProviders: Provider[];
  reportCount: number;
}

const COLUMNS = 'id, workspace_id AS "workspaceId", name, created_at AS "createdAt"';

// A client's providers and live report count, for the client row `c`.
const SUMMARY_COLUMNS = (workspace: WorkspaceBinding) => `
  coalesce((SELECT array_agg(p.provider::text ORDER BY p.provider) FROM provider_connections p WHERE p.client_id = c.id AND ${workspace('p')}), '{}') AS providers,
  (SELECT count(*)::int FROM reports r WHERE r.client_id = c.id AND ${workspace('r')} AND r.archived_at IS NULL) AS report_count`;

// The list carries each client's summary: one round trip for the v1 list instead of two.
const LIST = tenantStatement<Client & SummaryRow>(
  'clients.list',
  (workspace) => `SELECT c.id, c.workspace_id AS "workspaceId", c.name, c.created_at AS "createdAt", ${SUMMARY_COLUMNS(workspace)}
    FROM clients c WHERE ${workspace('c')} AND c.archived_at IS NULL ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
);
const COUNT = tenantStatement<{ n: number }>('clients.count', (workspace) => `SELECT count(*)::int AS n FROM clients WHERE ${workspace()} AND archived_at IS NULL`);
const BY_IDS = tenantStatement<Client>('clients.by-ids', (workspace) => `SELECT ${COLUMNS} FROM clients WHERE ${workspace()} AND archived_at IS NULL AND id = ANY($2::text[])`);
const SUMMARIES = tenantStatement<{ id: string } & SummaryRow>('clients.summaries', (workspace) => `SELECT c.id, ${SUMMARY_COLUMNS(workspace)} FROM unnest($2::text[]) AS c(id)`);

interface SummaryRow {
  providers: Provider[];
  report_count: number;
}

const summaryOf = (row: SummaryRow): ClientSummary => ({ connectedProviders: row.providers, reportCount: row.report_count });

export function clientRepository(scope: WorkspaceScope) {
  return {
    /** The newest clients, each with its summary (see summaries). */
    list: async (take: number): Promise<(Client & { summary: ClientSummary })[]> =>
      (await scope.rows(LIST, [take])).map(({ providers, report_count, ...client }) => ({ ...client, summary: summaryOf({ providers, report_count }) })),
    count: async () => (await scope.rows(COUNT))[0]!.n,
    /** Clients of the workspace by id, in the order asked; null where there is none. */
    byIds: async (ids: readonly string[]): Promise<(Client | null)[]> => inAskedOrder(ids, await scope.rows(BY_IDS, [ids])),
    /** Providers and live report counts of many clients in one statement. */
    summaries: async (clientIds: readonly string[]): Promise<ClientSummary[]> => {
      const rows = await scope.rows(SUMMARIES, [clientIds]);
      const byId = new Map(rows.map((row) => [row.id, summaryOf(row)]));
      return clientIds.map((id) => byId.get(id) ?? { connectedProviders: [], reportCount: 0 });
    },
  };
}
