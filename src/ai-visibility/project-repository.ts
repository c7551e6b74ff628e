import type { AiProject } from '../db/generated/prisma/client.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { ListEnvelope } from '../db/per-parent.js';
import { cappedByParent, inAskedOrder, perParentSql } from '../db/per-parent.js';
import { notFound } from '../errors/index.js';
import { tenantStatement } from '../db/tenant-sql.js';

// dataVersion: bumped by each ingest of the project's scans (the metrics cache key).
const COLUMNS = 'id, workspace_id AS "workspaceId", client_id AS "clientId", name, brand, competitors, models, locales, data_version::text AS "dataVersion", created_at AS "createdAt"';

export type ProjectRow = AiProject & { dataVersion: string };

const LIST = tenantStatement<ProjectRow>(
  'projects.list',
  (workspace) => `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND ($2::text IS NULL OR client_id = $2) ORDER BY created_at DESC, id DESC LIMIT $3`,
);
const COUNT = tenantStatement<{ n: number }>('projects.count', (workspace) => `SELECT count(*)::int AS n FROM ai_projects WHERE ${workspace()} AND ($2::text IS NULL OR client_id = $2)`);
const FIND = tenantStatement<ProjectRow>('projects.find', (workspace) => `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND id = $2`);
const DATA_VERSION = tenantStatement<{ version: string }>('projects.data-version', (workspace) => `SELECT data_version::text AS version FROM ai_projects WHERE ${workspace()} AND id = $2`);
const BY_IDS = tenantStatement<ProjectRow>('projects.by-ids', (workspace) => `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND id = ANY($2::text[])`);
const BY_CLIENTS = tenantStatement<ProjectRow & { parentId: string; total: number }>('projects.by-clients', (workspace) =>
  perParentSql(`
     SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM ai_projects
     WHERE ${workspace()} AND client_id = p.id ORDER BY created_at DESC, id DESC LIMIT $3`),
);

export function projectRepository(scope: WorkspaceScope) {
  return {
    list: (clientId: string | null, take: number) => scope.rows(LIST, [clientId, take]),
    count: async (clientId: string | null) => (await scope.rows(COUNT, [clientId]))[0]!.n,
    /** A project of the workspace, or 404. */
    find: async (id: string): Promise<ProjectRow> => {
      const [project] = await scope.rows(FIND, [id]);
      if (!project) throw notFound('AI-visibility project');
      return project;
    },
    /** The project's data version (bumped by each ingest of its scans); null if there is no such project. */
    dataVersionOf: async (id: string): Promise<string | null> => (await scope.rows(DATA_VERSION, [id]))[0]?.version ?? null,
    /** Projects by id, in the order asked; null where there is none. */
    byIds: async (ids: readonly string[]): Promise<(ProjectRow | null)[]> => inAskedOrder(ids, await scope.rows(BY_IDS, [ids])),
    /** Each client's projects, newest first, capped per client, in one statement. */
    byClients: async (clientIds: readonly string[], cap: number): Promise<ListEnvelope<ProjectRow>[]> => cappedByParent(clientIds, await scope.rows(BY_CLIENTS, [clientIds, cap])),
  };
}
