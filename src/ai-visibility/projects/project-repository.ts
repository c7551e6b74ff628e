import type { AiProject } from '../../db/generated/prisma/client.js';
import type { AiModel } from '../common/models.js';
import type { CompetitorDomains } from '../sources/domains.js';
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { perParent } from '../../db/per-parent.js';
import { clientOwnedRepository } from '../../db/client-owned-repository.js';
import { tenantStatement } from '../../db/tenant-sql.js';

// dataVersion: bumped by each ingest of the project's scans (the metrics cache key).
const COLUMNS =
  'id, workspace_id AS "workspaceId", client_id AS "clientId", name, brand, competitors, models, ' +
  'locales, domains, competitor_domains AS "competitorDomains", data_version::text AS "dataVersion", ' +
  'created_at AS "createdAt"';

// The array and JSON columns as what ingest and the admin commands write into them.
export type ProjectRow = Omit<AiProject, 'models' | 'competitorDomains'> & {
  models: AiModel[];
  competitorDomains: CompetitorDomains[];
  dataVersion: string;
};

const LIST = tenantStatement<ProjectRow, { clientId: string | null; take: number }>(
  'projects.list',
  (workspace, param) =>
    `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND archived_at IS NULL
      AND (${param('clientId')}::text IS NULL
      OR client_id = ${param('clientId')}) ORDER BY created_at DESC, id DESC LIMIT ${param('take')}`,
);
const COUNT = tenantStatement<{ n: number }, { clientId: string | null }>(
  'projects.count',
  (workspace, param) =>
    `SELECT count(*)::int AS n FROM ai_projects WHERE ${workspace()} AND archived_at IS NULL
      AND (${param('clientId')}::text IS NULL OR client_id = ${param('clientId')})`,
);
const FIND = tenantStatement<ProjectRow, { id: string }>(
  'projects.find',
  (workspace, param) =>
    `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND archived_at IS NULL AND id = ${param('id')}`,
);
const BY_IDS = tenantStatement<ProjectRow, { ids: readonly string[] }>(
  'projects.by-ids',
  (workspace, param) =>
    `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND archived_at IS NULL
      AND id = ANY(${param('ids')}::text[])`,
);
const BY_CLIENTS = tenantStatement<
  ProjectRow & { parentId: string; total: number },
  { parentIds: readonly string[]; cap: number }
>('projects.by-clients', (workspace, param) =>
  perParent(
    param('parentIds'),
    `
     SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM ai_projects
     WHERE ${workspace()} AND archived_at IS NULL AND client_id = p.id ORDER BY created_at DESC, id DESC
     LIMIT ${param('cap')}`,
  ),
);

/** Live projects of the workspace (see db/client-owned-repository.ts for what each read gives). */
export const projectRepository = (scope: WorkspaceScope) =>
  clientOwnedRepository<ProjectRow, ProjectRow>(
    scope,
    {
      list: LIST,
      count: COUNT,
      find: FIND,
      byIds: BY_IDS,
      byClients: BY_CLIENTS,
      rowOf: (row) => row,
      versionOf: (row) => row.dataVersion,
    },
    'AI-visibility project',
  );
