// Snapshot metrics of a project. Rows are capped; totals cover every row of the filtered range
// (not just the returned ones), per locale with byModel inside: added up from the rows when they
// are all of the range, computed in SQL when the cap cut them.
// Rates come from pooled sums only (pooled-rates.ts); locales are never summed together.
import { perParent } from '../../db/per-parent.js';
import { tenantStatement, type WorkspaceBinding } from '../../db/tenant-sql.js';
import type { ParamOf } from '../../db/named-parameters.js';
import { COUNTER_COLUMNS } from '../scans/scan-columns.js';
import {
  COMPETITOR_COUNTER_FIELDS,
  competitorMetrics,
  COUNTER_FIELDS,
  ratesOf,
  sumCounters,
  type CompetitorCounters,
  type CompetitorMetrics,
  type ScanCounters,
  type ScanRates,
} from './pooled-rates.js';
import { runFilterSql, type RunFilterParams } from '../common/run-filter.js';
import type { AiModel } from '../common/models.js';
import {
  SCAN_ARRAY_SQL,
  scanCompetitors,
  scanCountersOf,
  scanDate,
  scanLocale,
  scanModel,
  type StoredScan,
} from './stored-scan.js';
import type { CompetitorTotalsRow, ModelCountersRow } from './row-totals.js';

export type { CompetitorTotalsRow, ModelCountersRow } from './row-totals.js';

export interface MetricsRow extends ScanCounters, ScanRates {
  date: string;
  model: AiModel;
  locale: string;
  competitors: CompetitorMetrics[];
}

export interface ModelTotals extends ScanCounters, ScanRates {
  model: AiModel;
}

export interface LocaleTotals extends ScanCounters, ScanRates {
  locale: string;
  byModel: ModelTotals[];
  /** Each competitor pooled over the scans of the locale that report it. */
  competitors: CompetitorMetrics[];
}

export interface MetricsResult {
  rows: MetricsRow[];
  total: number;
  totals: LocaleTotals[];
}

const counterSums = COUNTER_FIELDS.map((field) => `sum(${COUNTER_COLUMNS[field]})::float8 AS "${field}"`).join(', ');
// The scans of the range, model and locale (parentIds: the projects; cap: the rows per project, null for all).
export type ScanParams = RunFilterParams & { parentIds: readonly string[] };
const scanFilterSql = (workspace: WorkspaceBinding, param: ParamOf<RunFilterParams>) =>
  `${workspace()} AND ${runFilterSql('', param)}`;

/** A scan as the metrics rows read it: its fields in one JSON array (stored-scan.ts). */
export interface StoredMetricsRow {
  scan: StoredScan;
}

export const METRICS_ROWS = tenantStatement<
  StoredMetricsRow & { parentId: string },
  ScanParams & { cap: number | null }
>('ai-metrics-rows', (workspace, param) =>
  perParent(
    param('parentIds'),
    `
     SELECT ${SCAN_ARRAY_SQL} AS scan FROM scans
     WHERE project_id = p.id AND ${scanFilterSql(workspace, param)}
     ORDER BY date DESC, locale, model LIMIT ${param('cap')}`,
  ),
);
// Unnamed, so it is planned for the ids at hand (a generic plan misjudges `project_id = ANY(parentIds)`).
// Grouped by (locale, model) only: the locale totals are those rows added up (localeTotalsOf), which
// PostgreSQL does faster than GROUPING SETS with a locale level (docs/decisions/ai-visibility-metrics-reads.md).
export const TOTALS = tenantStatement<ModelCountersRow & { parentId: string }, ScanParams>(
  null,
  (workspace, param) => `SELECT project_id AS "parentId", locale, model, count(*)::int AS row_count, ${counterSums}
    FROM scans WHERE project_id = ANY(${param('parentIds')}::text[]) AND ${scanFilterSql(workspace, param)}
    GROUP BY project_id, locale, model ORDER BY project_id, locale COLLATE "C", model COLLATE "C"`,
);
// Σ of each competitor's counters and Σ of the runs and mentions of the same scans, per locale.
const competitorSums = COMPETITOR_COUNTER_FIELDS.map((field) => `sum(c."${field}")::float8 AS "${field}"`).join(', ');
const competitorColumns = COMPETITOR_COUNTER_FIELDS.map((field) => `"${field}" bigint`).join(', ');
export const COMPETITOR_TOTALS = tenantStatement<CompetitorTotalsRow & { parentId: string }, ScanParams>(
  null,
  (workspace, param) => `SELECT s.project_id AS "parentId", s.locale, c.name,
     ${competitorSums},
     sum(s.total_runs)::float8 AS "totalRuns", sum(s.total_mention_count)::float8 AS "totalMentionCount"
   FROM scans s CROSS JOIN LATERAL jsonb_to_recordset(s.competitors) AS c(name text, ${competitorColumns})
   WHERE s.project_id = ANY(${param('parentIds')}::text[]) AND s.competitors <> '[]'::jsonb
     AND ${scanFilterSql(workspace, param)}
   GROUP BY s.project_id, s.locale, c.name ORDER BY s.project_id, s.locale COLLATE "C", c.name COLLATE "C"`,
);

const competitorCountersOf = (row: CompetitorCounters): CompetitorCounters => ({
  name: String(row.name),
  visibilityCount: Number(row.visibilityCount),
  mentionCount: Number(row.mentionCount),
  positionedCount: Number(row.positionedCount),
  positionSum: Number(row.positionSum),
});

// The counters of a grouped row, without its keys: spread into each model's totals.
function countersOf(row: ScanCounters): ScanCounters {
  return {
    totalRuns: Number(row.totalRuns),
    visibilityCount: Number(row.visibilityCount),
    mentionCount: Number(row.mentionCount),
    totalMentionCount: Number(row.totalMentionCount),
    positionedCount: Number(row.positionedCount),
    positionSum: Number(row.positionSum),
    positiveCount: Number(row.positiveCount),
    neutralCount: Number(row.neutralCount),
    negativeCount: Number(row.negativeCount),
  };
}

/**
 * A stored metrics row (a scan) with its rates and its competitors' rates against it. Written out
 * field by field, not spread: it runs for each of up to 1 000 rows of a response
 * (docs/decisions/ai-visibility-metrics-reads.md).
 */
export function metricsRowOf({ scan }: StoredMetricsRow): MetricsRow {
  const counters = scanCountersOf(scan);
  const rates = ratesOf(counters);
  return {
    date: scanDate(scan),
    model: scanModel(scan),
    locale: scanLocale(scan),
    totalRuns: counters.totalRuns,
    visibilityCount: counters.visibilityCount,
    mentionCount: counters.mentionCount,
    totalMentionCount: counters.totalMentionCount,
    positionedCount: counters.positionedCount,
    positionSum: counters.positionSum,
    positiveCount: counters.positiveCount,
    neutralCount: counters.neutralCount,
    negativeCount: counters.negativeCount,
    visibility: rates.visibility,
    shareOfVoice: rates.shareOfVoice,
    averagePosition: rates.averagePosition,
    sentiment: rates.sentiment,
    competitors: scanCompetitors(scan).map((competitor) =>
      competitorMetrics(competitor, counters.totalRuns, counters.totalMentionCount),
    ),
  };
}

/**
 * Per-locale totals (byModel inside, competitors beside) from rows grouped by (locale, model)
 * and per-locale competitor sums. A locale's counters are its models' added up, its rates pooled
 * from those sums; `total` counts the rows the grouped rows stand for.
 */
export function localeTotalsOf(
  modelRows: readonly ModelCountersRow[],
  competitorRows: readonly CompetitorTotalsRow[],
): { totals: LocaleTotals[]; total: number } {
  const rowsByLocale = new Map<string, ModelCountersRow[]>();
  let total = 0;
  for (const row of modelRows) {
    const rows = rowsByLocale.get(row.locale);
    if (rows) rows.push(row);
    else rowsByLocale.set(row.locale, [row]);
    total += row.row_count;
  }
  const totals = [...rowsByLocale].map(([locale, rows]): LocaleTotals => {
    const byModel = rows.map((row): ModelTotals => {
      const counters = countersOf(row);
      return { model: row.model, ...counters, ...ratesOf(counters) };
    });
    const counters = sumCounters(byModel);
    const competitors = competitorRows
      .filter((competitor) => competitor.locale === locale)
      .map((competitor) =>
        competitorMetrics(
          competitorCountersOf(competitor),
          Number(competitor.totalRuns),
          Number(competitor.totalMentionCount),
        ),
      );
    return { locale, ...counters, ...ratesOf(counters), byModel, competitors };
  });
  return { totals, total };
}
