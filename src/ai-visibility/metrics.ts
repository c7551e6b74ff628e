// Snapshot metrics of a project. Rows are capped; totals are computed in SQL over every
// row of the filtered range (not just the returned ones), per locale with byModel inside.
// Rates come from pooled sums only (pooled-rates.ts); locales are never summed together.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { groupByParent, perParentSql } from '../graphql/per-parent.js';
import { COUNTER_COLUMNS, COUNTER_SELECT } from './scan-columns.js';
import { COUNTER_FIELDS, ratesOf, type ScanCounters, type ScanRates } from './pooled-rates.js';
import type { DateRange } from '../dates/civil-date.js';

export interface MetricsRow extends ScanCounters, ScanRates {
  date: string;
  model: string;
  locale: string;
}

export interface ModelTotals extends ScanCounters, ScanRates {
  model: string;
}

export interface LocaleTotals extends ScanCounters, ScanRates {
  locale: string;
  byModel: ModelTotals[];
}

export interface MetricsResult {
  rows: MetricsRow[];
  total: number;
  totals: LocaleTotals[];
}

const counterSums = COUNTER_FIELDS.map((field) => `sum(${COUNTER_COLUMNS[field]})::float8 AS "${field}"`).join(', ');
// $1 workspace, $2 project ids, $3/$4 range, $5 model or null.
const FILTER = 'workspace_id = $1 AND date BETWEEN $3::date AND $4::date AND ($5::text IS NULL OR model = $5)';

const countersOf = (row: Record<string, unknown>): ScanCounters =>
  Object.fromEntries(COUNTER_FIELDS.map((field) => [field, Number(row[field])])) as unknown as ScanCounters;

/**
 * Metrics of several projects over one range, in two statements whatever their number: the
 * most recent rows of each project (capped per project) and the pooled totals of each.
 */
export async function queryProjectMetrics(scope: WorkspaceScope, projectIds: readonly string[], range: DateRange, model: string | null, cap: number): Promise<MetricsResult[]> {
  const values = [projectIds, range.from, range.to, model];
  const [rows, totalsRows] = await Promise.all([
    scope.rows<MetricsRow & { parentId: string }>(
      'ai-metrics-rows',
      perParentSql(`
         SELECT date, model, locale, ${COUNTER_SELECT} FROM scans
         WHERE project_id = p.id AND ${FILTER} ORDER BY date DESC, locale, model LIMIT $6`),
      [...values, cap],
    ),
    // Unnamed, so it is planned for the ids at hand: a prepared statement's generic plan for
    // `project_id = ANY($2)` misjudged the rows and cost 25 % of the endpoint's latency.
    scope.rows<Record<string, any> & { parentId: string }>(
      null,
      `SELECT project_id AS "parentId", locale, model, GROUPING(model) AS all_models, count(*)::int AS row_count, ${counterSums}
        FROM scans WHERE project_id = ANY($2::text[]) AND ${FILTER}
        GROUP BY GROUPING SETS ((project_id, locale), (project_id, locale, model)) ORDER BY project_id, locale, model NULLS FIRST`,
      values,
    ),
  ]);
  const rowsByProject = groupByParent(projectIds, rows);
  return groupByParent(projectIds, totalsRows).map((projectTotals, index) => {
    const totals: LocaleTotals[] = [];
    let total = 0;
    for (const row of projectTotals) {
      const counters = countersOf(row);
      if (row.all_models === 1) {
        totals.push({ locale: row.locale, ...counters, ...ratesOf(counters), byModel: [] });
        total += row.row_count;
      } else {
        totals.at(-1)!.byModel.push({ model: row.model, ...counters, ...ratesOf(counters) });
      }
    }
    const projectRows = rowsByProject[index]!.map(({ date, model: rowModel, locale, ...row }) => {
      const counters = countersOf(row);
      return { date, model: rowModel, locale, ...counters, ...ratesOf(counters) };
    });
    return { rows: projectRows, total, totals };
  });
}
