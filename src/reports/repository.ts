import type { Report } from '../db/generated/prisma/client.js';
import type { ReportDefinition } from './definition.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { perParent } from '../db/per-parent.js';
import { clientOwnedRepository } from '../db/client-owned-repository.js';
import { tenantStatement, type WorkspaceBinding } from '../db/tenant-sql.js';

// Lists read the summary only, never the definition (docs/decisions/data-access.md, "report lists").
const SUMMARY_COLUMNS =
  'id, workspace_id AS "workspaceId", client_id AS "clientId", name, ' +
  'created_at AS "createdAt", updated_at AS "updatedAt"';
// The client's data version, bumped by each ingest of its facts (part of the cache keys).
const CLIENT_DATA_VERSION = 'coalesce((SELECT c.data_version FROM clients c WHERE c.id = reports.client_id), 0)::text';
// A whole row's reads take the client's data version and currency (of the report's money figures) in one lookup of
// its row (`FROM reports ${OF_CLIENT}`); the data-version probe takes the one column it needs.
const OF_CLIENT = `LEFT JOIN LATERAL
  (SELECT c.data_version, c.currency FROM clients c WHERE c.id = reports.client_id) client ON true`;
const CLIENT_COLUMNS = 'coalesce(client.data_version, 0)::text AS "dataVersion", client.currency';
const COLUMNS = `${SUMMARY_COLUMNS}, definition, archived_at AS "archivedAt", ${CLIENT_COLUMNS}`;
// One by id, its definition as text (parsed when a reader asks): v1's version probe reads this row.
const ALONE_COLUMNS = `${SUMMARY_COLUMNS}, definition::text AS definition, archived_at AS "archivedAt"`;
const TIME_ZONE = `definition->'dateConfig'->>'timezone'`;
const FOUND_COLUMNS = `${ALONE_COLUMNS}, ${TIME_ZONE} AS "timeZone", ${CLIENT_COLUMNS}`;

export type ReportSummaryRow = Pick<Report, 'id' | 'workspaceId' | 'clientId' | 'name' | 'createdAt' | 'updatedAt'>;
// The definition column as the report commands write it (validated by reports/definition.ts).
// dataVersion and currency are null in a report read alone (findAlone), which only its own answer reads.
export type ReportRow = Omit<Report, 'definition'> & {
  definition: ReportDefinition;
  dataVersion: string | null;
  currency: string | null;
};
type FoundReport = Omit<ReportRow, 'definition'> & { definition: string; timeZone: string | null };
type RowVersions = Pick<FoundReport, 'updatedAt'>;
type DataVersions = Pick<FoundReport, 'updatedAt' | 'dataVersion' | 'timeZone'>;
const live = (workspace: WorkspaceBinding) => `${workspace()} AND archived_at IS NULL`;

const LIST = tenantStatement<ReportSummaryRow, { clientId: string | null; take: number }>(
  'reports.list',
  (workspace, param) => `SELECT ${SUMMARY_COLUMNS} FROM reports
    WHERE ${live(workspace)} AND (${param('clientId')}::text IS NULL OR client_id = ${param('clientId')})
    ORDER BY created_at DESC, id DESC LIMIT ${param('take')}`,
);
const COUNT = tenantStatement<{ n: number }, { clientId: string | null }>(
  'reports.count',
  (workspace, param) => `SELECT count(*)::int AS n FROM reports
    WHERE ${live(workspace)} AND (${param('clientId')}::text IS NULL OR client_id = ${param('clientId')})`,
);
const FIND = tenantStatement<FoundReport, { id: string }>(
  'reports.find',
  (workspace, param) =>
    `SELECT ${FOUND_COLUMNS} FROM reports ${OF_CLIENT} WHERE ${live(workspace)} AND id = ${param('id')}`,
);
// The probes of a kept answer: the versions alone (a row read by the primary key's index, no definition to convert).
const ROW_VERSIONS = tenantStatement<RowVersions, { id: string }>(
  'reports.row-versions',
  (workspace, param) =>
    `SELECT updated_at AS "updatedAt" FROM reports WHERE ${live(workspace)} AND id = ${param('id')}`,
);
const DATA_VERSIONS = tenantStatement<DataVersions, { id: string }>(
  'reports.data-versions',
  (workspace, param) => `SELECT updated_at AS "updatedAt", ${CLIENT_DATA_VERSION} AS "dataVersion",
    ${TIME_ZONE} AS "timeZone" FROM reports WHERE ${live(workspace)} AND id = ${param('id')}`,
);
// The report as its own answer shows it: no client lookup for the data version, no zone read out of the definition.
const FIND_ALONE = tenantStatement<FoundReport, { id: string }>(
  'reports.find-alone',
  (workspace, param) => `SELECT ${ALONE_COLUMNS}, NULL::text AS "dataVersion", NULL::text AS "timeZone",
    NULL::text AS currency FROM reports
    WHERE ${live(workspace)} AND id = ${param('id')}`,
);
const BY_IDS = tenantStatement<ReportRow, { ids: readonly string[] }>(
  'reports.by-ids',
  (workspace, param) =>
    `SELECT ${COLUMNS} FROM reports ${OF_CLIENT} WHERE ${live(workspace)} AND id = ANY(${param('ids')}::text[])`,
);
const BY_CLIENTS = tenantStatement<
  ReportSummaryRow & { parentId: string; total: number },
  { parentIds: readonly string[]; cap: number }
>('reports.by-clients', (workspace, param) =>
  perParent(
    param('parentIds'),
    `SELECT ${SUMMARY_COLUMNS}, count(*) OVER ()::int AS total FROM reports
     WHERE ${live(workspace)} AND client_id = p.id ORDER BY created_at DESC, id DESC LIMIT ${param('cap')}`,
  ),
);

/** Live reports of the workspace (see db/client-owned-repository.ts for what each read gives). */
export const reportRepository = (scope: WorkspaceScope) =>
  clientOwnedRepository<ReportRow, ReportSummaryRow, FoundReport, RowVersions, DataVersions>(
    scope,
    {
      list: LIST,
      count: COUNT,
      find: FIND,
      rowOf: (found) => ({ ...found, definition: JSON.parse(found.definition) as ReportDefinition }),
      versionOf: (found) => `${found.updatedAt.getTime()}.${found.dataVersion}`,
      // A report's definition is its row alone: its facts' ingests do not change it.
      rowVersionOf: (found) => String(found.updatedAt.getTime()),
      timeZoneOf: (found) => found.timeZone ?? 'UTC',
      versionProbes: { row: ROW_VERSIONS, data: DATA_VERSIONS },
      findAlone: FIND_ALONE,
      byIds: BY_IDS,
      byClients: BY_CLIENTS,
    },
    'report',
  );
