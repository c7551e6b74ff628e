import type { Report } from '../db/generated/prisma/client.js';
import type { WorkspaceSql } from '../db/workspace-sql.js';
import { notFound } from '../errors/index.js';

const COLUMNS = 'id, workspace_id AS "workspaceId", client_id AS "clientId", name, definition, archived_at AS "archivedAt", created_at AS "createdAt", updated_at AS "updatedAt"';

export function reportRepository(sql: WorkspaceSql) {
  return {
    list: (clientId: string | null, take: number) =>
      sql.rows<Report>(
        'reports.list',
        `SELECT ${COLUMNS} FROM reports WHERE workspace_id = $1 AND archived_at IS NULL AND ($2::text IS NULL OR client_id = $2) ORDER BY created_at DESC, id DESC LIMIT $3`,
        [clientId, take],
      ),
    count: async (clientId: string | null) =>
      (await sql.rows<{ n: number }>('reports.count', 'SELECT count(*)::int AS n FROM reports WHERE workspace_id = $1 AND archived_at IS NULL AND ($2::text IS NULL OR client_id = $2)', [clientId]))[0]!.n,
    /** A live (not archived) report of the workspace, or 404. */
    find: async (id: string): Promise<Report> => {
      const [report] = await sql.rows<Report>('reports.find', `SELECT ${COLUMNS} FROM reports WHERE workspace_id = $1 AND id = $2 AND archived_at IS NULL`, [id]);
      if (!report) throw notFound('report');
      return report;
    },
  };
}
