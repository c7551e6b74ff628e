import type { AiModel } from '../ai-visibility/index.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { groupByParent, inAskedOrder, perParent } from '../db/per-parent.js';
import { toPage, type Page, type PageArgs } from '../db/paging.js';
import { tenantStatement } from '../db/tenant-sql.js';
import { effectiveRules, isSignalKind, type SignalRule } from './rules.js';

export interface SignalRow {
  id: string;
  projectId: string;
  scanId: string | null;
  kind: string;
  acknowledgedAt: Date | null;
  model: AiModel;
  locale: string;
  details: Record<string, unknown>;
  createdAt: Date;
}

export interface SignalFilter {
  dateFrom: string | null;
  dateTo: string | null;
  kind: string | null;
}

const COLUMNS = `id, project_id AS "projectId", scan_id AS "scanId", kind, model, locale, details,
  created_at AS "createdAt", acknowledged_at AS "acknowledgedAt"`;

const RULES_OF = tenantStatement<SignalRule & { projectId: string }, { projectIds: readonly string[] }>(
  'signals.rules-of',
  (workspace, param) => `SELECT project_id AS "projectId", kind, threshold, enabled FROM signal_rules
    WHERE ${workspace()} AND project_id = ANY(${param('projectIds')}::text[])`,
);
const BY_IDS = tenantStatement<SignalRow, { ids: readonly string[] }>(
  'signals.by-ids',
  (workspace, param) => `SELECT ${COLUMNS} FROM signals WHERE ${workspace()} AND id = ANY(${param('ids')}::text[])`,
);

interface PageParams {
  parentIds: readonly string[];
  dateFrom: string | null;
  dateTo: string | null;
  kind: string | null;
  afterCreatedAt: string | Date | null;
  afterId: string | null;
  take: number;
}

const PAGES = tenantStatement<SignalRow & { parentId: string }, PageParams>('signals.pages', (workspace, param) =>
  perParent(
    param('parentIds'),
    `SELECT ${COLUMNS} FROM signals
     WHERE ${workspace()} AND project_id = p.id
       AND (${param('dateFrom')}::date IS NULL
            OR created_at >= ${param('dateFrom')}::date::timestamp AT TIME ZONE 'UTC')
       AND (${param('dateTo')}::date IS NULL
            OR created_at < (${param('dateTo')}::date + 1)::timestamp AT TIME ZONE 'UTC')
       AND (${param('kind')}::text IS NULL OR kind = ${param('kind')})
       AND (${param('afterCreatedAt')}::timestamptz IS NULL
            OR (created_at, id) < (${param('afterCreatedAt')}::timestamptz, ${param('afterId')}::text))
     ORDER BY created_at DESC, id DESC LIMIT ${param('take')}`,
  ),
);

export function signalRepository(scope: WorkspaceScope) {
  return {
    /** Each project's rules, defaults filled in, in one statement. */
    rulesOf: async (projectIds: readonly string[]): Promise<SignalRule[][]> => {
      const rows = await scope.rows(RULES_OF, { projectIds });
      return projectIds.map((id) =>
        effectiveRules(
          rows
            .filter((row) => row.projectId === id && isSignalKind(row.kind))
            .map(({ kind, threshold, enabled }) => ({ kind, threshold, enabled })),
        ),
      );
    },
    byIds: async (ids: readonly string[]): Promise<(SignalRow | null)[]> =>
      inAskedOrder(ids, await scope.rows(BY_IDS, { ids })),
    /** One page of each project's signals, newest first, in one statement. Dates are UTC days of createdAt. */
    pages: async (projectIds: readonly string[], args: PageArgs & SignalFilter): Promise<Page<SignalRow>[]> => {
      const rows = await scope.rows(PAGES, {
        parentIds: projectIds,
        dateFrom: args.dateFrom,
        dateTo: args.dateTo,
        kind: args.kind,
        afterCreatedAt: args.after?.sortValue ?? null,
        afterId: args.after?.id ?? null,
        take: args.first + 1,
      });
      return groupByParent(projectIds, rows).map((page) => toPage(page, args.first));
    },
  };
}
