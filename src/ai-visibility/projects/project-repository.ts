import type { AiProject } from '../../db/generated/prisma/client.js';
import type { AiModel } from '../shared/models.js';
import type { CompetitorDomains } from '../sources/domains.js';
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { perParentSql } from '../../db/per-parent.js';
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

const LIST = tenantStatement<ProjectRow>(
  'projects.list',
  (workspace) =>
    `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND archived_at IS NULL AND ($2::text IS NULL
      OR client_id = $2) ORDER BY created_at DESC, id DESC LIMIT $3`,
);
const COUNT = tenantStatement<{ n: number }>(
  'projects.count',
  (workspace) =>
    `SELECT count(*)::int AS n FROM ai_projects WHERE ${workspace()} AND archived_at IS NULL AND ($2::text IS NULL
      OR client_id = $2)`,
);
const FIND = tenantStatement<ProjectRow>(
  'projects.find',
  (workspace) => `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND archived_at IS NULL AND id = $2`,
);
const BY_IDS = tenantStatement<ProjectRow>(
  'projects.by-ids',
  (workspace) =>
    `SELECT ${COLUMNS} FROM ai_projects WHERE ${workspace()} AND archived_at IS NULL AND id = ANY($2::text[])`,
);
const BY_CLIENTS = tenantStatement<ProjectRow & { parentId: string; total: number }>(
  'projects.by-clients',
  (workspace) =>
    perParentSql(`
     SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM ai_projects
     WHERE ${workspace()} AND archived_at IS NULL AND client_id = p.id ORDER BY created_at DESC, id DESC LIMIT $3`),
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
