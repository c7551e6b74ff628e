import type { AiProject } from '../db/generated/prisma/client.js';
import type { WorkspaceSql } from '../db/workspace-sql.js';
import { notFound } from '../errors/index.js';

const COLUMNS = 'id, workspace_id AS "workspaceId", client_id AS "clientId", name, brand, competitors, models, locales, created_at AS "createdAt"';

export function projectRepository(sql: WorkspaceSql) {
  return {
    list: (clientId: string | null, take: number) =>
      sql.rows<AiProject>(
        'projects.list',
        `SELECT ${COLUMNS} FROM ai_projects WHERE workspace_id = $1 AND ($2::text IS NULL OR client_id = $2) ORDER BY created_at DESC, id DESC LIMIT $3`,
        [clientId, take],
      ),
    count: async (clientId: string | null) =>
      (await sql.rows<{ n: number }>('projects.count', 'SELECT count(*)::int AS n FROM ai_projects WHERE workspace_id = $1 AND ($2::text IS NULL OR client_id = $2)', [clientId]))[0]!.n,
    /** The id of a project of the workspace, or 404. */
    require: async (id: string): Promise<string> => {
      const [row] = await sql.rows<{ id: string }>('projects.require', 'SELECT id FROM ai_projects WHERE workspace_id = $1 AND id = $2', [id]);
      if (!row) throw notFound('AI-visibility project');
      return row.id;
    },
  };
}
