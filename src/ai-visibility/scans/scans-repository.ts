import type { AiModel } from '../shared/models.js';
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { groupByParent, inAskedOrder, perParentSql } from '../../db/per-parent.js';
import { toPage, type Page, type PageArgs } from '../../db/paging.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import { ratesOf, type ScanCounters, type ScanRates } from '../metrics/pooled-rates.js';
import { COUNTER_SELECT } from './scan-columns.js';
import { localeMatchesSql } from '../shared/run-filter.js';

export interface ScanRow extends ScanCounters, ScanRates {
  id: string;
  projectId: string;
  date: string;
  model: AiModel;
  locale: string;
  completedAt: Date;
}

export interface ScanFilter {
  dateFrom: string | null;
  dateTo: string | null;
  model: string | null;
  locale: string | null;
}

const COLUMNS = `id, project_id AS "projectId", date, model, locale, completed_at AS "completedAt", ${COUNTER_SELECT}`;

const withRates = <T extends ScanCounters>(row: T) => ({ ...row, ...ratesOf(row) });

const BY_IDS = tenantStatement<ScanRow>(
  'scans.by-ids',
  (workspace) => `SELECT ${COLUMNS} FROM scans WHERE ${workspace()} AND id = ANY($2::text[])`,
);
const PAGES = tenantStatement<ScanRow & { parentId: string }>('scans.pages', (workspace) =>
  perParentSql(`
     SELECT ${COLUMNS} FROM scans
     WHERE ${workspace()} AND project_id = p.id
       AND ($3::date IS NULL OR date >= $3::date) AND ($4::date IS NULL OR date <= $4::date)
       AND ($5::text IS NULL OR model = $5) AND ${localeMatchesSql('locale', '$6')}
       AND ($7::date IS NULL OR (date, id) < ($7::date, $8::text))
     ORDER BY date DESC, id DESC LIMIT $9`),
);

export function scanRepository(scope: WorkspaceScope) {
  return {
    byIds: async (ids: readonly string[]): Promise<(ScanRow | null)[]> =>
      inAskedOrder(ids, (await scope.rows(BY_IDS, [ids])).map(withRates)),
    /** One page of each project's scans, newest first (date, then id), in one statement. */
    pages: async (projectIds: readonly string[], args: PageArgs & ScanFilter): Promise<Page<ScanRow>[]> => {
      const rows = await scope.rows(PAGES, [
        projectIds,
        args.dateFrom,
        args.dateTo,
        args.model,
        args.locale,
        args.after?.sortValue ?? null,
        args.after?.id ?? null,
        args.first + 1,
      ]);
      return groupByParent(projectIds, rows).map((page) => toPage(page.map(withRates), args.first));
    },
  };
}
