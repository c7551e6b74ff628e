import type { Report } from '../db/generated/prisma/client.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { ListEnvelope } from '../db/per-parent.js';
import { cappedByParent, inAskedOrder, perParentSql } from '../db/per-parent.js';
import { notFound } from '../errors/index.js';
import { tenantStatement, type WorkspaceBinding } from '../db/tenant-sql.js';

// Lists read the summary only: parsing every report's definition cost /reports 4× its time.
const SUMMARY_COLUMNS = 'id, workspace_id AS "workspaceId", client_id AS "clientId", name, created_at AS "createdAt", updated_at AS "updatedAt"';
// The client's data version, bumped by each ingest of its facts (part of the cache keys).
const CLIENT_DATA_VERSION = 'coalesce((SELECT c.data_version FROM clients c WHERE c.id = reports.client_id), 0)::text';
const COLUMNS = `${SUMMARY_COLUMNS}, definition, archived_at AS "archivedAt", ${CLIENT_DATA_VERSION} AS "dataVersion"`;

export type ReportSummaryRow = Pick<Report, 'id' | 'workspaceId' | 'clientId' | 'name' | 'createdAt' | 'updatedAt'>;
export type ReportRow = Report & { dataVersion: string };
const live = (workspace: WorkspaceBinding) => `${workspace()} AND archived_at IS NULL`;

const LIST = tenantStatement<ReportSummaryRow>(
  'reports.list',
  (workspace) => `SELECT ${SUMMARY_COLUMNS} FROM reports WHERE ${live(workspace)} AND ($2::text IS NULL OR client_id = $2) ORDER BY created_at DESC, id DESC LIMIT $3`,
);
const COUNT = tenantStatement<{ n: number }>('reports.count', (workspace) => `SELECT count(*)::int AS n FROM reports WHERE ${live(workspace)} AND ($2::text IS NULL OR client_id = $2)`);
const FIND = tenantStatement<ReportRow>('reports.find', (workspace) => `SELECT ${COLUMNS} FROM reports WHERE ${live(workspace)} AND id = $2`);
const DATA_VERSION = tenantStatement<{ version: string }>(
  'reports.data-version',
  (workspace) => `SELECT (extract(epoch FROM updated_at) * 1000)::bigint::text || '.' || ${CLIENT_DATA_VERSION} AS version FROM reports WHERE ${live(workspace)} AND id = $2`,
);
const BY_IDS = tenantStatement<ReportRow>('reports.by-ids', (workspace) => `SELECT ${COLUMNS} FROM reports WHERE ${live(workspace)} AND id = ANY($2::text[])`);
const BY_CLIENTS = tenantStatement<ReportSummaryRow & { parentId: string; total: number }>('reports.by-clients', (workspace) =>
  perParentSql(`
     SELECT ${SUMMARY_COLUMNS}, count(*) OVER ()::int AS total FROM reports
     WHERE ${live(workspace)} AND client_id = p.id ORDER BY created_at DESC, id DESC LIMIT $3`),
);

export function reportRepository(scope: WorkspaceScope) {
  return {
    list: (clientId: string | null, take: number) => scope.rows(LIST, [clientId, take]),
    count: async (clientId: string | null) => (await scope.rows(COUNT, [clientId]))[0]!.n,
    /** A live (not archived) report of the workspace, or 404. */
    find: async (id: string): Promise<ReportRow> => {
      const [report] = await scope.rows(FIND, [id]);
      if (!report) throw notFound('report');
      return report;
    },
    /** What the report's data depends on besides its parameters: its definition and its client's facts; null if there is no such live report. */
    dataVersionOf: async (id: string): Promise<string | null> => (await scope.rows(DATA_VERSION, [id]))[0]?.version ?? null,
    /** Live reports by id, in the order asked; null where there is none. */
    byIds: async (ids: readonly string[]): Promise<(ReportRow | null)[]> => inAskedOrder(ids, await scope.rows(BY_IDS, [ids])),
    /** Each client's live reports, newest first, capped per client, in one statement. */
    byClients: async (clientIds: readonly string[], cap: number): Promise<ListEnvelope<ReportSummaryRow>[]> => cappedByParent(clientIds, await scope.rows(BY_CLIENTS, [clientIds, cap])),
  };
}
