import type { Report } from '../db/generated/prisma/client.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { ListEnvelope } from '../graphql/envelope.js';
import { cappedByParent, inAskedOrder, perParentSql } from '../graphql/per-parent.js';
import { notFound } from '../errors/index.js';

const COLUMNS = 'id, workspace_id AS "workspaceId", client_id AS "clientId", name, definition, archived_at AS "archivedAt", created_at AS "createdAt", updated_at AS "updatedAt"';
const LIVE = 'workspace_id = $1 AND archived_at IS NULL';

export function reportRepository(scope: WorkspaceScope) {
  return {
    list: (clientId: string | null, take: number) =>
      scope.rows<Report>('reports.list', `SELECT ${COLUMNS} FROM reports WHERE ${LIVE} AND ($2::text IS NULL OR client_id = $2) ORDER BY created_at DESC, id DESC LIMIT $3`, [clientId, take]),
    count: async (clientId: string | null) =>
      (await scope.rows<{ n: number }>('reports.count', `SELECT count(*)::int AS n FROM reports WHERE ${LIVE} AND ($2::text IS NULL OR client_id = $2)`, [clientId]))[0]!.n,
    /** A live (not archived) report of the workspace, or 404. */
    find: async (id: string): Promise<Report> => {
      const [report] = await scope.rows<Report>('reports.find', `SELECT ${COLUMNS} FROM reports WHERE ${LIVE} AND id = $2`, [id]);
      if (!report) throw notFound('report');
      return report;
    },
    /** Live reports by id, in the order asked; null where there is none. */
    byIds: async (ids: readonly string[]): Promise<(Report | null)[]> =>
      inAskedOrder(ids, await scope.rows<Report>('reports.by-ids', `SELECT ${COLUMNS} FROM reports WHERE ${LIVE} AND id = ANY($2::text[])`, [ids])),
    /** Each client's live reports, newest first, capped per client, in one statement. */
    byClients: async (clientIds: readonly string[], cap: number): Promise<ListEnvelope<Report>[]> => {
      const rows = await scope.rows<Report & { parentId: string; total: number }>(
        'reports.by-clients',
        perParentSql(`
           SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM reports
           WHERE ${LIVE} AND client_id = p.id ORDER BY created_at DESC, id DESC LIMIT $3`),
        [clientIds, cap],
      );
      return cappedByParent(clientIds, rows);
    },
  };
}
