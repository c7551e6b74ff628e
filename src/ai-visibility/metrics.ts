// Snapshot metrics of a project. Rows are capped; totals are computed in SQL over every
// row of the filtered range (not just the returned ones), per locale with byModel inside.
// Rates come from pooled sums only (pooled-rates.ts); locales are never summed together.
import type pg from 'pg';
import { COUNTER_FIELDS, ratesOf, type ScanCounters, type ScanRates } from './pooled-rates.js';
import type { DateRange } from '../reports/dates.js';

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

/** The scans column of each counter of the contract. */
export const COUNTER_COLUMNS: Record<(typeof COUNTER_FIELDS)[number], string> = {
  totalRuns: 'total_runs',
  visibilityCount: 'visibility_count',
  mentionCount: 'mention_count',
  totalMentionCount: 'total_mention_count',
  positionedCount: 'positioned_count',
  positionSum: 'position_sum',
  positiveCount: 'positive_count',
  neutralCount: 'neutral_count',
  negativeCount: 'negative_count',
};

const counterSelect = COUNTER_FIELDS.map((field) => `${COUNTER_COLUMNS[field]} AS "${field}"`).join(', ');
const counterSums = COUNTER_FIELDS.map((field) => `sum(${COUNTER_COLUMNS[field]})::float8 AS "${field}"`).join(', ');
const FILTER = 'project_id = $1 AND date BETWEEN $2::date AND $3::date AND ($4::text IS NULL OR model = $4)';

const countersOf = (row: Record<string, unknown>): ScanCounters =>
  Object.fromEntries(COUNTER_FIELDS.map((field) => [field, Number(row[field])])) as unknown as ScanCounters;

export async function queryProjectMetrics(pool: pg.Pool, projectId: string, range: DateRange, model: string | null, cap: number): Promise<MetricsResult> {
  const values = [projectId, range.from, range.to, model];
  const [rowsResult, totalsResult] = await Promise.all([
    pool.query({
      name: 'ai-metrics-rows',
      text: `SELECT date, model, locale, ${counterSelect} FROM scans WHERE ${FILTER} ORDER BY date DESC, locale, model LIMIT $5`,
      values: [...values, cap],
    }),
    pool.query({
      name: 'ai-metrics-totals',
      text: `SELECT locale, model, GROUPING(model) AS all_models, count(*)::int AS row_count, ${counterSums}
        FROM scans WHERE ${FILTER} GROUP BY GROUPING SETS ((locale), (locale, model)) ORDER BY locale, model NULLS FIRST`,
      values,
    }),
  ]);
  const rows = rowsResult.rows.map((row) => {
    const counters = countersOf(row);
    return { date: row.date, model: row.model, locale: row.locale, ...counters, ...ratesOf(counters) };
  });
  const totals: LocaleTotals[] = [];
  let total = 0;
  for (const row of totalsResult.rows) {
    const counters = countersOf(row);
    if (row.all_models === 1) {
      totals.push({ locale: row.locale, ...counters, ...ratesOf(counters), byModel: [] });
      total += row.row_count;
    } else {
      totals.at(-1)!.byModel.push({ model: row.model, ...counters, ...ratesOf(counters) });
    }
  }
  return { rows, total, totals };
}
