import type { AiModel } from '../common/models.js';
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { groupByParent, inAskedOrder, perParent } from '../../db/per-parent.js';
import { toPage, type Page, type PageArgs } from '../../db/paging.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import { ratesOf, type ScanCounters, type ScanRates } from '../metrics/pooled-rates.js';
import { COUNTER_SELECT } from './scan-columns.js';
import { localeMatchesSql } from '../common/run-filter.js';

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

const BY_IDS = tenantStatement<ScanRow, { ids: readonly string[] }>(
  'scans.by-ids',
  (workspace, param) => `SELECT ${COLUMNS} FROM scans WHERE ${workspace()} AND id = ANY(${param('ids')}::text[])`,
);
type PagesParams = ScanFilter & {
  parentIds: readonly string[];
  afterDate: string | null;
  afterId: string | null;
  take: number;
};
const PAGES = tenantStatement<ScanRow & { parentId: string }, PagesParams>('scans.pages', (workspace, param) =>
  perParent(
    param('parentIds'),
    `
     SELECT ${COLUMNS} FROM scans
     WHERE ${workspace()} AND project_id = p.id
       AND (${param('dateFrom')}::date IS NULL OR date >= ${param('dateFrom')}::date)
       AND (${param('dateTo')}::date IS NULL OR date <= ${param('dateTo')}::date)
       AND (${param('model')}::text IS NULL OR model = ${param('model')})
       AND ${localeMatchesSql('locale', param('locale'))}
       AND (${param('afterDate')}::date IS NULL
         OR (date, id) < (${param('afterDate')}::date, ${param('afterId')}::text))
     ORDER BY date DESC, id DESC LIMIT ${param('take')}`,
  ),
);

export function scanRepository(scope: WorkspaceScope) {
  return {
    byIds: async (ids: readonly string[]): Promise<(ScanRow | null)[]> =>
      inAskedOrder(ids, (await scope.rows(BY_IDS, { ids })).map(withRates)),
    /** One page of each project's scans, newest first (date, then id), in one statement. */
    pages: async (projectIds: readonly string[], args: PageArgs & ScanFilter): Promise<Page<ScanRow>[]> => {
      const rows = await scope.rows(PAGES, {
        parentIds: projectIds,
        dateFrom: args.dateFrom,
        dateTo: args.dateTo,
        model: args.model,
        locale: args.locale,
        afterDate: args.after?.sortValue ?? null,
        afterId: args.after?.id ?? null,
        take: args.first + 1,
      });
      return groupByParent(projectIds, rows).map((page) => toPage(page.map(withRates), args.first));
    },
  };
}
