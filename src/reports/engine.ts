// The live report-data engine. Aggregation runs in SQL (grouped sums); Node only turns
// summed base parts into metric values. Widgets share queries: one "series" query per
// provider and range (totals plus every bucket grain the widgets need) and one "table"
// query per provider, dimension and range.
import type pg from 'pg';
import { baseMetricsOf, catalog, metricValue, type ProviderId } from './catalog.js';
import { bucketsOf, type DateRange, type Granularity } from './dates.js';
import type { ReportDefinition, Widget } from './definition.js';

type Sums = Record<string, number>;

export interface Kpi {
  widgetId: string;
  metric: string;
  value: number | null;
  previousValue: number | null;
  change: number | null;
}

export interface ChartPoint {
  date: string;
  value: number | null;
  previousValue: number | null;
}

export interface Chart {
  widgetId: string;
  type: string;
  granularity: Granularity;
  series: { metric: string; points: ChartPoint[] }[];
}

export interface TableRow {
  dimensionValue: string;
  values: (number | null)[];
  previousValues: (number | null)[];
}

export interface Table {
  widgetId: string;
  dimension: string;
  columns: string[];
  rows: TableRow[];
  totals: { values: (number | null)[]; previousValues: (number | null)[] };
}

export interface ReportData {
  kpis: Kpi[];
  charts: Chart[];
  tables: Table[];
}

/** Summed base metrics of one provider over one range: the total and per bucket per grain. */
export interface SeriesSums {
  total: Sums;
  buckets: Record<Granularity, Map<string, Sums>>;
}

/** Summed base metrics per dimension value, plus the total over all values. */
export interface TableSums {
  byValue: Map<string, Sums>;
  total: Sums;
}

export const relativeChange = (value: number | null, previous: number | null): number | null =>
  value === null || previous === null || previous === 0 ? null : (value - previous) / Math.abs(previous);

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

function sumColumns(provider: ProviderId): string {
  return baseMetricsOf(provider)
    .map((name) => {
      const metric = catalog[provider].metrics[name]!;
      return `coalesce(sum(${quote(metric.kind === 'base' ? metric.column : name)}), 0)::float8 AS ${quote(name)}`;
    })
    .join(', ');
}

const toSums = (provider: ProviderId, row: Record<string, unknown>): Sums =>
  Object.fromEntries(baseMetricsOf(provider).map((name) => [name, Number(row[name] ?? 0)]));

const GRAIN_SQL: Record<Granularity, string> = {
  day: 'date',
  week: "date_trunc('week', date)::date",
  month: "date_trunc('month', date)::date",
};

export async function querySeriesSums(
  pool: pg.Pool,
  clientId: string,
  provider: ProviderId,
  range: DateRange,
  grains: readonly Granularity[],
): Promise<SeriesSums> {
  const sums = sumColumns(provider);
  const selects = [`SELECT 'total' AS grain, NULL::date AS bucket, ${sums} FROM f`];
  for (const grain of grains) selects.push(`SELECT '${grain}', ${GRAIN_SQL[grain]}, ${sums} FROM f GROUP BY 2`);
  const sql = `WITH f AS MATERIALIZED (
      SELECT * FROM metric_facts
      WHERE client_id = $1 AND provider = $2::"Provider" AND dimension = '' AND date BETWEEN $3::date AND $4::date
    ) ${selects.join(' UNION ALL ')}`;
  const result = await pool.query({ name: `series:${provider}:${grains.join(',')}`, text: sql, values: [clientId, provider, range.from, range.to] });
  const series: SeriesSums = { total: {}, buckets: { day: new Map(), week: new Map(), month: new Map() } };
  for (const row of result.rows) {
    if (row.grain === 'total') series.total = toSums(provider, row);
    else series.buckets[row.grain as Granularity].set(row.bucket, toSums(provider, row));
  }
  return series;
}

export async function queryTableSums(pool: pg.Pool, clientId: string, provider: ProviderId, dimension: string, range: DateRange): Promise<TableSums> {
  const sql = `SELECT dimension_value, GROUPING(dimension_value) AS is_total, ${sumColumns(provider)}
    FROM metric_facts
    WHERE client_id = $1 AND provider = $2::"Provider" AND dimension = $3 AND date BETWEEN $4::date AND $5::date
    GROUP BY GROUPING SETS ((dimension_value), ())`;
  const result = await pool.query({ name: `table:${provider}`, text: sql, values: [clientId, provider, dimension, range.from, range.to] });
  const table: TableSums = { byValue: new Map(), total: toSums(provider, {}) };
  for (const row of result.rows) {
    if (row.is_total === 1) table.total = toSums(provider, row);
    else table.byValue.set(row.dimension_value, toSums(provider, row));
  }
  return table;
}

const valueOf = (provider: ProviderId, metric: string, sums: Sums | undefined): number | null =>
  metricValue(provider, metric, sums ?? {});

export function assembleKpis(widget: Widget, current: SeriesSums, previous: SeriesSums | null): Kpi[] {
  const provider = widget.provider as ProviderId;
  return widget.metrics.map((metric) => {
    const value = valueOf(provider, metric, current.total);
    const previousValue = previous ? valueOf(provider, metric, previous.total) : null;
    return { widgetId: widget.id, metric, value, previousValue, change: relativeChange(value, previousValue) };
  });
}

export function assembleChart(widget: Widget, range: DateRange, compareRange: DateRange | null, current: SeriesSums, previous: SeriesSums | null): Chart {
  const provider = widget.provider as ProviderId;
  const granularity = widget.granularity ?? 'day';
  const buckets = bucketsOf(range, granularity);
  const previousBuckets = compareRange ? bucketsOf(compareRange, granularity) : [];
  return {
    widgetId: widget.id,
    type: widget.type,
    granularity,
    series: widget.metrics.map((metric) => ({
      metric,
      points: buckets.map((bucket, index) => {
        const previousBucket = previousBuckets[index];
        return {
          date: bucket,
          value: valueOf(provider, metric, current.buckets[granularity].get(bucket)),
          previousValue: previous && previousBucket ? valueOf(provider, metric, previous.buckets[granularity].get(previousBucket)) : null,
        };
      }),
    })),
  };
}

export function assembleTable(widget: Widget, current: TableSums, previous: TableSums | null): Table {
  const provider = widget.provider as ProviderId;
  const [rankMetric] = widget.metrics as [string];
  const ranked = [...current.byValue.entries()]
    .map(([dimensionValue, sums]) => ({ dimensionValue, sums, rank: valueOf(provider, rankMetric, sums) }))
    // Highest first; rows whose ranking metric is null go last; ties by name keep the order stable.
    .sort((a, b) => (b.rank ?? -Infinity) - (a.rank ?? -Infinity) || a.dimensionValue.localeCompare(b.dimensionValue))
    .slice(0, widget.limit ?? 10);
  const valuesOf = (sums: Sums | undefined) => widget.metrics.map((metric) => valueOf(provider, metric, sums));
  const nullValues = widget.metrics.map(() => null);
  return {
    widgetId: widget.id,
    dimension: widget.dimension!,
    columns: [...widget.metrics],
    rows: ranked.map(({ dimensionValue, sums }) => ({
      dimensionValue,
      values: valuesOf(sums),
      previousValues: previous ? valuesOf(previous.byValue.get(dimensionValue)) : nullValues,
    })),
    totals: { values: valuesOf(current.total), previousValues: previous ? valuesOf(previous.total) : nullValues },
  };
}

export async function computeReportData(
  pool: pg.Pool,
  clientId: string | null,
  definition: ReportDefinition,
  range: DateRange,
  compareRange: DateRange | null,
): Promise<ReportData> {
  const emptySeries = (): SeriesSums => ({ total: {}, buckets: { day: new Map(), week: new Map(), month: new Map() } });
  const emptyTable = (): TableSums => ({ byValue: new Map(), total: {} });
  const ranges = compareRange ? [range, compareRange] : [range];

  // Plan the shared queries: grains per provider, dimensions per provider.
  const grainsByProvider = new Map<ProviderId, Set<Granularity>>();
  const dimensionsByProvider = new Map<ProviderId, Set<string>>();
  for (const widget of definition.widgets) {
    const provider = widget.provider as ProviderId;
    if (widget.type === 'table') {
      dimensionsByProvider.set(provider, (dimensionsByProvider.get(provider) ?? new Set()).add(widget.dimension!));
    } else {
      const grains = grainsByProvider.get(provider) ?? new Set();
      if (widget.type !== 'kpi') grains.add(widget.granularity ?? 'day');
      grainsByProvider.set(provider, grains);
    }
  }

  const series = new Map<string, Promise<SeriesSums>>();
  const tables = new Map<string, Promise<TableSums>>();
  ranges.forEach((r, rangeIndex) => {
    for (const [provider, grains] of grainsByProvider) {
      series.set(`${provider}|${rangeIndex}`, clientId ? querySeriesSums(pool, clientId, provider, r, [...grains].sort()) : Promise.resolve(emptySeries()));
    }
    for (const [provider, dimensions] of dimensionsByProvider) {
      for (const dimension of dimensions) {
        tables.set(`${provider}|${dimension}|${rangeIndex}`, clientId ? queryTableSums(pool, clientId, provider, dimension, r) : Promise.resolve(emptyTable()));
      }
    }
  });
  const [seriesResults, tableResults] = await Promise.all([
    Promise.all([...series].map(async ([key, promise]) => [key, await promise] as const)).then((entries) => new Map(entries)),
    Promise.all([...tables].map(async ([key, promise]) => [key, await promise] as const)).then((entries) => new Map(entries)),
  ]);

  const data: ReportData = { kpis: [], charts: [], tables: [] };
  for (const widget of definition.widgets) {
    if (widget.type === 'table') {
      const key = `${widget.provider}|${widget.dimension}`;
      data.tables.push(assembleTable(widget, tableResults.get(`${key}|0`)!, compareRange ? tableResults.get(`${key}|1`)! : null));
      continue;
    }
    const current = seriesResults.get(`${widget.provider}|0`)!;
    const previous = compareRange ? seriesResults.get(`${widget.provider}|1`)! : null;
    if (widget.type === 'kpi') data.kpis.push(...assembleKpis(widget, current, previous));
    else data.charts.push(assembleChart(widget, range, compareRange, current, previous));
  }
  return data;
}
