import type { AiProject } from '../db/generated/prisma/client.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { ListEnvelope } from '../db/per-parent.js';
import { cappedByParent, inAskedOrder, perParentSql } from '../db/per-parent.js';
import { notFound } from '../errors/index.js';

// dataVersion: bumped by each ingest of the project's scans (the metrics cache key).
const COLUMNS = 'id, workspace_id AS "workspaceId", client_id AS "clientId", name, brand, competitors, models, locales, data_version::text AS "dataVersion", created_at AS "createdAt"';

export type ProjectRow = AiProject & { dataVersion: string };

export function projectRepository(scope: WorkspaceScope) {
  return {
    list: (clientId: string | null, take: number) =>
      scope.rows<ProjectRow>(
        'projects.list',
        `SELECT ${COLUMNS} FROM ai_projects WHERE workspace_id = $1 AND ($2::text IS NULL OR client_id = $2) ORDER BY created_at DESC, id DESC LIMIT $3`,
        [clientId, take],
      ),
    count: async (clientId: string | null) =>
      (await scope.rows<{ n: number }>('projects.count', 'SELECT count(*)::int AS n FROM ai_projects WHERE workspace_id = $1 AND ($2::text IS NULL OR client_id = $2)', [clientId]))[0]!.n,
    /** A project of the workspace, or 404. */
    find: async (id: string): Promise<ProjectRow> => {
      const [project] = await scope.rows<ProjectRow>('projects.find', `SELECT ${COLUMNS} FROM ai_projects WHERE workspace_id = $1 AND id = $2`, [id]);
      if (!project) throw notFound('AI-visibility project');
      return project;
    },
    /** The project's data version (bumped by each ingest of its scans); null if there is no such project. */
    dataVersionOf: async (id: string): Promise<string | null> =>
      (await scope.rows<{ version: string }>('projects.data-version', 'SELECT data_version::text AS version FROM ai_projects WHERE workspace_id = $1 AND id = $2', [id]))[0]?.version ?? null,
    /** Projects by id, in the order asked; null where there is none. */
    byIds: async (ids: readonly string[]): Promise<(ProjectRow | null)[]> =>
      inAskedOrder(ids, await scope.rows<ProjectRow>('projects.by-ids', `SELECT ${COLUMNS} FROM ai_projects WHERE workspace_id = $1 AND id = ANY($2::text[])`, [ids])),
    /** Each client's projects, newest first, capped per client, in one statement. */
    byClients: async (clientIds: readonly string[], cap: number): Promise<ListEnvelope<ProjectRow>[]> => {
      const rows = await scope.rows<ProjectRow & { parentId: string; total: number }>(
        'projects.by-clients',
        perParentSql(`
           SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM ai_projects
           WHERE workspace_id = $1 AND client_id = p.id ORDER BY created_at DESC, id DESC LIMIT $3`),
        [clientIds, cap],
      );
      return cappedByParent(clientIds, rows);
    },
  };
}
