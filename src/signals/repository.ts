import type { AiModel } from '../ai-visibility/index.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { groupByParent, inAskedOrder, perParentSql } from '../db/per-parent.js';
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

const COLUMNS =
  'id, project_id AS "projectId", scan_id AS "scanId", kind, model, locale, details, created_at AS "createdAt", acknowledged_at AS "acknowledgedAt"';

const RULES_OF = tenantStatement<SignalRule & { projectId: string }>(
  'signals.rules-of',
  (workspace) =>
    `SELECT project_id AS "projectId", kind, threshold, enabled FROM signal_rules WHERE ${workspace()} AND project_id = ANY($2::text[])`,
);
const BY_IDS = tenantStatement<SignalRow>(
  'signals.by-ids',
  (workspace) => `SELECT ${COLUMNS} FROM signals WHERE ${workspace()} AND id = ANY($2::text[])`,
);
const PAGES = tenantStatement<SignalRow & { parentId: string }>('signals.pages', (workspace) =>
  perParentSql(`
     SELECT ${COLUMNS} FROM signals
     WHERE ${workspace()} AND project_id = p.id
       AND ($3::date IS NULL OR created_at >= $3::date::timestamp AT TIME ZONE 'UTC')
       AND ($4::date IS NULL OR created_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC')
       AND ($5::text IS NULL OR kind = $5)
       AND ($6::timestamptz IS NULL OR (created_at, id) < ($6::timestamptz, $7::text))
     ORDER BY created_at DESC, id DESC LIMIT $8`),
);

export function signalRepository(scope: WorkspaceScope) {
  return {
    /** Each project's rules, defaults filled in, in one statement. */
    rulesOf: async (projectIds: readonly string[]): Promise<SignalRule[][]> => {
      const rows = await scope.rows(RULES_OF, [projectIds]);
      return projectIds.map((id) =>
        effectiveRules(
          rows
            .filter((row) => row.projectId === id && isSignalKind(row.kind))
            .map(({ kind, threshold, enabled }) => ({ kind, threshold, enabled })),
        ),
      );
    },
    byIds: async (ids: readonly string[]): Promise<(SignalRow | null)[]> =>
      inAskedOrder(ids, await scope.rows(BY_IDS, [ids])),
    /** One page of each project's signals, newest first, in one statement. Dates are UTC days of createdAt. */
    pages: async (projectIds: readonly string[], args: PageArgs & SignalFilter): Promise<Page<SignalRow>[]> => {
      const rows = await scope.rows(PAGES, [
        projectIds,
        args.dateFrom,
        args.dateTo,
        args.kind,
        args.after?.sortValue ?? null,
        args.after?.id ?? null,
        args.first + 1,
      ]);
      return groupByParent(projectIds, rows).map((page) => toPage(page, args.first));
    },
  };
}
