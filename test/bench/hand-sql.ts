// The hand-written side of bench:report and bench:ai: straightforward SQL through pg and the
// endpoint's exact JSON body assembled in place. The benches call it in their own process and
// the bare server (baseline-server.ts) serves it over HTTP, so the service can be compared with
// both. Only pure functions of the service are used (metric formulas, pooled rates, presets and
// buckets) and its column names.
import type pg from 'pg';
import { catalog, metricValue, type ProviderId } from '../../src/reports/catalog.js';
import { relativeChange } from '../../src/reports/engine.js';
import type { ReportDefinition, Widget } from '../../src/reports/definition.js';
import { bucketCoverage, bucketsOf } from '../../src/reports/date-presets.js';
import { daysBetweenInclusive, type DateRange } from '../../src/dates/civil-date.js';
import {
  competitorMetrics,
  COUNTER_FIELDS,
  ratesOf,
  sumCounters,
  type CompetitorCounters,
  type ScanCounters,
} from '../../src/ai-visibility/metrics/pooled-rates.js';
import { COUNTER_COLUMNS, COUNTER_SELECT } from '../../src/ai-visibility/scans/scan-columns.js';

type Row = Record<string, number>;

const baseColumns = (provider: ProviderId) =>
  Object.entries(catalog[provider].metrics)
    .filter(([, m]) => m.kind === 'base')
    .map(([name]) => name);

/** The report's data as `GET /api/v1/reports/{id}/data` answers it: one query per widget and range. */
export async function handReportData(
  pool: pg.Pool,
  report: { id: string; clientId: string; currency: string | null; definition: ReportDefinition },
  range: DateRange,
  compare: DateRange | null,
) {
  const where = `client_id = $1 AND provider = $2::"Provider" AND date BETWEEN $3::date AND $4::date`;
  const ranges = compare ? [range, compare] : [range];
  const perRange = (sql: string, widget: Widget, extra: unknown[] = []) =>
    Promise.all(
      ranges.map(
        async (r) => (await pool.query(sql, [report.clientId, widget.provider, r.from, r.to, ...extra])).rows as Row[],
      ),
    );
  const widgets = await Promise.all(
    report.definition.widgets.map(async (widget) => {
      const provider = widget.provider as ProviderId;
      const columns = baseColumns(provider);
      const sums = columns.map((name) => `coalesce(sum(${name}), 0)::float8 AS ${name}`).join(', ');
      const value = (row: Row | undefined, metric: string) => metricValue(provider, metric, row ?? {});
      if (widget.type === 'kpi') {
        const [current, previous] = await perRange(
          `SELECT ${sums} FROM metric_facts WHERE ${where} AND dimension = ''`,
          widget,
        );
        return widget.metrics.map((metric) => {
          const kpi = value(current![0], metric);
          const previousValue = previous ? value(previous[0], metric) : null;
          return { widgetId: widget.id, metric, value: kpi, previousValue, change: relativeChange(kpi, previousValue) };
        });
      }
      if (widget.type === 'table') {
        const [current, previous] = await perRange(
          `SELECT dimension_value, ${sums} FROM metric_facts WHERE ${where} AND dimension = $5
             GROUP BY dimension_value`,
          widget,
          [widget.dimension],
        );
        const previousBy = new Map(previous?.map((row) => [row.dimension_value as unknown as string, row]));
        const total = (rows: Row[]) => {
          const summed: Row = {};
          for (const row of rows) for (const name of columns) summed[name] = (summed[name] ?? 0) + row[name]!;
          return summed;
        };
        const valuesOf = (row: Row | undefined) => widget.metrics.map((m) => value(row, m));
        const nulls = widget.metrics.map(() => null);
        const rows = current!
          .map((row) => ({
            dimensionValue: row.dimension_value as unknown as string,
            values: valuesOf(row),
            previousValues: previous ? valuesOf(previousBy.get(row.dimension_value as unknown as string)) : nulls,
          }))
          .sort(
            (a, b) =>
              (b.values[0] ?? -Infinity) - (a.values[0] ?? -Infinity) ||
              a.dimensionValue.localeCompare(b.dimensionValue),
          )
          .slice(0, widget.limit ?? 10);
        return {
          widgetId: widget.id,
          dimension: widget.dimension,
          columns: widget.metrics,
          rows,
          totals: { values: valuesOf(total(current!)), previousValues: previous ? valuesOf(total(previous)) : nulls },
        };
      }
      const granularity = widget.granularity ?? 'day';
      const [current, previous] = await perRange(
        `SELECT date_trunc('${granularity}', date)::date AS bucket, ${sums}, count(*)::int AS days FROM metric_facts
           WHERE ${where} AND dimension = '' GROUP BY 1 ORDER BY 1`,
        widget,
      );
      // Every bucket of the range, with or without facts (the days after the data's last one).
      const byBucket = (rows: Row[]) => new Map(rows.map((row) => [row.bucket as unknown as string, row]));
      const [currentBy, previousBy] = [byBucket(current!), byBucket(previous ?? [])];
      const previousBuckets = compare ? bucketsOf(compare, granularity) : [];
      const spanOf = (bucket: string, of: DateRange, rows: Map<string, Row>) => ({
        date: bucket,
        ...bucketCoverage(bucket, granularity, of),
        daysWithData: rows.get(bucket)?.days ?? 0,
      });
      // A compared bucket without facts has nothing to compare with: null, not 0.
      const previousOf = (bucket: string, metric: string) =>
        previousBy.has(bucket) ? value(previousBy.get(bucket), metric) : null;
      return {
        widgetId: widget.id,
        type: widget.type,
        granularity,
        series: widget.metrics.map((metric) => ({
          metric,
          points: bucketsOf(range, granularity).map((bucket, index) => {
            const before = compare && previousBuckets[index] ? previousBuckets[index] : null;
            return {
              ...spanOf(bucket, range, currentBy),
              value: value(currentBy.get(bucket), metric),
              previousValue: before ? previousOf(before, metric) : null,
              compareBucket: before ? spanOf(before, compare!, previousBy) : null,
            };
          }),
        })),
      };
    }),
  );
  // Days with facts per source the report reads (a provider's totals, or one of its table
  // dimensions); a range's coverage is the least covered source's.
  const sourceOf = (widget: Widget) => `${widget.provider}|${widget.type === 'table' ? widget.dimension : ''}`;
  const sources = [...new Set(report.definition.widgets.map(sourceOf))];
  const covered = async (r: DateRange) => {
    const { rows } = await pool.query(
      `SELECT provider::text || '|' || dimension AS source, count(DISTINCT date)::int AS days FROM metric_facts
       WHERE client_id = $1 AND date BETWEEN $2::date AND $3::date GROUP BY provider, dimension`,
      [report.clientId, r.from, r.to],
    );
    const days = new Map(rows.map((row) => [row.source as string, row.days as number]));
    return {
      ...r,
      days: daysBetweenInclusive(r),
      daysWithData: Math.min(...sources.map((source) => days.get(source) ?? 0)),
    };
  };
  const [coveredRange, coveredCompare] = await Promise.all([covered(range), compare ? covered(compare) : null]);
  const data = {
    reportId: report.id,
    range: coveredRange,
    compareRange: coveredCompare,
    timezone: report.definition.dateConfig.timezone,
    currency: report.currency,
    kpis: [] as unknown[],
    charts: [] as unknown[],
    tables: [] as unknown[],
  };
  report.definition.widgets.forEach((widget, index) => {
    if (widget.type === 'kpi') data.kpis.push(...(widgets[index] as unknown[]));
    else if (widget.type === 'table') data.tables.push(widgets[index]);
    else data.charts.push(widgets[index]);
  });
  return { data, meta: {} };
}

/** The metric rows returned at most, as the endpoint caps them (METRICS_ROW_CAP's default). */
const METRICS_ROW_CAP = 1000;

/**
 * A project's metrics as `GET /api/v1/ai-visibility/projects/{id}/metrics` answers them,
 * competitors included: per row the scan's competitor counters with their rates, per locale the
 * competitors pooled over the scans that report them (one statement reading only such scans).
 */
export async function handAiMetrics(pool: pg.Pool, projectId: string, from: string, to: string) {
  const [rows, count, totals, competitorTotals] = await Promise.all([
    pool.query(
      `SELECT date, model, locale, ${COUNTER_SELECT}, competitors FROM scans
         WHERE project_id = $1 AND date BETWEEN $2 AND $3 ORDER BY date DESC, locale, model LIMIT ${METRICS_ROW_CAP}`,
      [projectId, from, to],
    ),
    pool.query('SELECT count(*)::int AS n FROM scans WHERE project_id = $1 AND date BETWEEN $2 AND $3', [
      projectId,
      from,
      to,
    ]),
    pool.query(
      `SELECT locale, model,
         ${COUNTER_FIELDS.map((field) => `sum(${COUNTER_COLUMNS[field]})::int AS "${field}"`).join(', ')} FROM scans
         WHERE project_id = $1 AND date BETWEEN $2 AND $3 GROUP BY locale, model ORDER BY locale, model`,
      [projectId, from, to],
    ),
    pool.query(
      `SELECT s.locale, c.name, sum(c."visibilityCount")::float8 AS "visibilityCount",
         sum(c."mentionCount")::float8 AS "mentionCount", sum(c."positionedCount")::float8 AS "positionedCount",
              sum(c."positionSum")::float8 AS "positionSum", sum(s.total_runs)::float8 AS "totalRuns",
                sum(s.total_mention_count)::float8 AS "totalMentionCount"
       FROM scans s CROSS JOIN LATERAL jsonb_to_recordset(s.competitors) AS c(name text, "visibilityCount" bigint,
         "mentionCount" bigint, "positionedCount" bigint, "positionSum" bigint)
       WHERE s.project_id = $1 AND s.competitors <> '[]'::jsonb AND s.date BETWEEN $2 AND $3 GROUP BY s.locale, c.name
         ORDER BY s.locale, c.name`,
      [projectId, from, to],
    ),
  ]);
  const modelsByLocale = new Map<string, (ScanCounters & { model: string })[]>();
  for (const { locale, ...model } of totals.rows) {
    if (!modelsByLocale.has(locale)) modelsByLocale.set(locale, []);
    modelsByLocale.get(locale)!.push(model);
  }
  return {
    data: {
      projectId,
      range: { from, to },
      rows: rows.rows.map(({ competitors, ...row }) => ({
        ...row,
        ...ratesOf(row),
        competitors: (competitors as CompetitorCounters[]).map((competitor) =>
          competitorMetrics(competitor, row.totalRuns, row.totalMentionCount),
        ),
      })),
      totals: [...modelsByLocale].map(([locale, models]) => {
        const counters = sumCounters(models);
        return {
          locale,
          ...counters,
          ...ratesOf(counters),
          byModel: models.map((model) => ({ ...model, ...ratesOf(model) })),
          competitors: competitorTotals.rows
            .filter((row) => row.locale === locale)
            .map(({ totalRuns, totalMentionCount, ...competitor }) =>
              competitorMetrics(competitor as CompetitorCounters, totalRuns, totalMentionCount),
            ),
        };
      }),
    },
    meta: { total: count.rows[0].n, truncated: count.rows[0].n > rows.rows.length },
  };
}

/**
 * Where the service's body and the hand-written one differ: a path and both values, or null when
 * they agree (numbers within a relative 1e-9: sums are added in another order).
 */
export function firstDifference(ours: unknown, hand: unknown, path = '$'): string | null {
  if (typeof ours === 'number' && typeof hand === 'number')
    return Math.abs(ours - hand) <= 1e-9 * Math.max(1, Math.abs(hand)) ? null : `${path}: ${ours} vs ${hand}`;
  if (ours === null || hand === null || typeof ours !== 'object' || typeof hand !== 'object')
    return ours === hand ? null : `${path}: ${JSON.stringify(ours)} vs ${JSON.stringify(hand)}`;
  const keys = new Set([...Object.keys(ours), ...Object.keys(hand)]);
  for (const key of keys) {
    const difference = firstDifference(
      (ours as Record<string, unknown>)[key],
      (hand as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (difference) return difference;
  }
  return null;
}
