// A project's rates over time: per day, ISO week (from Monday) or month, per model and locale,
// each bucket pooled from its scans' counters like every rate of the metric contract.
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import { COUNTER_COLUMNS } from '../scans/scan-columns.js';
import { COUNTER_FIELDS, ratesOf, type ScanCounters, type ScanRates } from './pooled-rates.js';
import { runFilterSql, runFilterValues, type RunFilter, type RunFilterParams } from '../common/run-filter.js';
import type { AiModel } from '../common/models.js';

export const TREND_GRANULARITIES = ['day', 'week', 'month'] as const;
export type TrendGranularity = (typeof TREND_GRANULARITIES)[number];

export interface TrendPoint extends ScanRates {
  period: string;
  model: AiModel;
  locale: string;
  totalRuns: number;
}

const sums = COUNTER_FIELDS.map((field) => `sum(s.${COUNTER_COLUMNS[field]})::float8 AS "${field}"`).join(', ');

// granularity: a date_trunc unit.
const TREND = tenantStatement<
  ScanCounters & { period: string; model: AiModel; locale: string },
  RunFilterParams & { projectId: string; granularity: TrendGranularity }
>(
  'ai-trend',
  (workspace, param) => `SELECT to_char(date_trunc(${param('granularity')}, s.date), 'YYYY-MM-DD') AS period,
    s.model, s.locale, ${sums}
    FROM scans s WHERE ${workspace('s')} AND s.project_id = ${param('projectId')} AND ${runFilterSql('s', param)}
    GROUP BY 1, s.model, s.locale ORDER BY s.locale, s.model, 1`,
);

export async function queryTrend(
  scope: WorkspaceScope,
  projectId: string,
  filter: RunFilter,
  granularity: TrendGranularity,
): Promise<TrendPoint[]> {
  const rows = await scope.rows(TREND, { projectId, ...runFilterValues(filter), granularity });
  return rows.map(({ period, model, locale, ...counters }) => ({
    period,
    model,
    locale,
    totalRuns: counters.totalRuns,
    ...ratesOf(counters),
  }));
}
