// The live report-data engine. Aggregation runs in SQL (grouped sums); Node only turns
// summed base parts into metric values. Widgets share parts: one "series" part per provider
// and range (the total plus every bucket grain its charts need) and one "table" part per
// provider, dimension and range; all parts of a report go to PostgreSQL as one statement.
import { createHash } from 'node:crypto';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { tenantStatement, type WorkspaceBinding } from '../db/tenant-sql.js';
import { METRIC_COLUMNS, metricValue, type ProviderId } from './catalog.js';
import type { DateRange } from '../dates/civil-date.js';
import { bucketsOf, type Granularity } from './date-presets.js';
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

const GRAIN_SQL: Record<Granularity, string> = {
  day: 'date',
  week: "date_trunc('week', date)",
  month: "date_trunc('month', date)",
};

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const SUM_COLUMNS = METRIC_COLUMNS.map((column) => `coalesce(sum(${column}), 0)::float8 AS ${column}`).join(', ');

export interface SeriesPart {
  kind: 'series';
  provider: ProviderId;
  rangeIndex: number;
  grains: Granularity[];
}

export interface TablePart {
  kind: 'table';
  provider: ProviderId;
  rangeIndex: number;
  dimension: string;
}

export type Part = SeriesPart | TablePart;

/** The parts of one report over its ranges, for one client. */
export interface SumsRequest {
  clientId: string;
  parts: readonly Part[];
  ranges: readonly DateRange[];
}

/**
 * One SQL statement for every part of every requested report: a UNION ALL of grouped sums,
 * each part a GROUPING SETS aggregation over its index range (the total plus the buckets or
 * dimension values it needs). $1 is the workspace; each request's client is looked up under
 * it, so facts are only ever read for a client of the caller's workspace. Then, per request,
 * its client id and its ranges' bounds.
 */
export function reportSumsSql(requests: readonly Pick<SumsRequest, 'parts' | 'ranges'>[], workspace: WorkspaceBinding): string {
  const selects: string[] = [];
  let param = 2;
  requests.forEach((request, requestIndex) => {
    const clientParam = param;
    const rangeParam = (rangeIndex: number) => clientParam + 1 + rangeIndex * 2;
    param += 1 + request.ranges.length * 2;
    request.parts.forEach((part, partIndex) => {
      const range = `date BETWEEN $${rangeParam(part.rangeIndex)}::date AND $${rangeParam(part.rangeIndex) + 1}::date`;
      const where = `client_id = (SELECT id FROM clients WHERE ${workspace()} AND id = $${clientParam}) AND provider = ${literal(part.provider)}::"Provider" AND ${range}`;
      const tag = `${requestIndex} AS request, ${partIndex} AS part`;
      if (part.kind === 'table') {
        selects.push(`SELECT ${tag}, dimension_value AS key, ${SUM_COLUMNS} FROM metric_facts
          WHERE ${where} AND dimension = ${literal(part.dimension)} GROUP BY GROUPING SETS ((dimension_value), ())`);
        return;
      }
      const grains = part.grains.map((grain) => GRAIN_SQL[grain]);
      const grainOf = part.grains.map((grain) => `WHEN GROUPING(${GRAIN_SQL[grain]}) = 0 THEN '${grain}:' || (${GRAIN_SQL[grain]})::date::text`).join(' ');
      selects.push(`SELECT ${tag}, ${grains.length ? `CASE ${grainOf} END` : 'NULL'} AS key, ${SUM_COLUMNS} FROM metric_facts
        WHERE ${where} AND dimension = '' GROUP BY GROUPING SETS (()${grains.map((grain) => `, (${grain})`).join('')})`);
    });
  });
  return selects.join('\nUNION ALL\n');
}

const toSums = (row: Record<string, unknown>): Sums => Object.fromEntries(METRIC_COLUMNS.map((name) => [name, Number(row[name] ?? 0)]));
const emptySeries = (): SeriesSums => ({ total: {}, buckets: { day: new Map(), week: new Map(), month: new Map() } });
const emptyTable = (): TableSums => ({ byValue: new Map(), total: {} });
const emptySums = (parts: readonly Part[]) => parts.map((part) => (part.kind === 'series' ? emptySeries() : emptyTable()));

/** The sums of every part of every request, in one round trip. */
export async function queryReportSums(scope: WorkspaceScope, requests: readonly SumsRequest[]): Promise<(SeriesSums | TableSums)[][]> {
  const results = requests.map((request) => emptySums(request.parts));
  const asked = requests.filter((request) => request.parts.length > 0);
  if (asked.length === 0) return results;
  const values = asked.flatMap((request) => [request.clientId, ...request.ranges.flatMap((range) => [range.from, range.to])]);
  // Planning a report's statement costs about a third of executing it; a single report's
  // statement is named (parsed and planned once per connection). Its text depends only on
  // the report's shape (providers, grains, dimensions), so the number of names stays small.
  // Batches of several reports are too varied to keep prepared.
  const named = (text: string) => (asked.length === 1 ? `report:${createHash('sha1').update(text).digest('base64url')}` : null);
  const rows = await scope.rows(tenantStatement<Record<string, any>>(named, (workspace) => reportSumsSql(asked, workspace)), values);
  const resultsOfAsked = asked.map((request) => results[requests.indexOf(request)]!);
  for (const row of rows) {
    const part = asked[row.request]!.parts[row.part]!;
    const target = resultsOfAsked[row.request]![row.part]!;
    if (part.kind === 'table') {
      const table = target as TableSums;
      if (row.key === null) table.total = toSums(row);
      else table.byValue.set(row.key, toSums(row));
    } else {
      const series = target as SeriesSums;
      if (row.key === null) series.total = toSums(row);
      else {
        const separator = row.key.indexOf(':');
        series.buckets[row.key.slice(0, separator) as Granularity].set(row.key.slice(separator + 1), toSums(row));
      }
    }
  }
  return results;
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

export interface ReportDataInput {
  clientId: string | null;
  definition: ReportDefinition;
  range: DateRange;
  compareRange: DateRange | null;
}

interface ReportPlan {
  parts: Part[];
  partIndex: Map<string, number>;
  ranges: DateRange[];
}

/** The shared parts of a report: per provider the grains its charts need, per provider the table dimensions. */
function planReport({ definition, range, compareRange }: ReportDataInput): ReportPlan {
  const ranges = compareRange ? [range, compareRange] : [range];
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
  const parts: Part[] = [];
  const partIndex = new Map<string, number>();
  ranges.forEach((_, rangeIndex) => {
    for (const [provider, grains] of grainsByProvider) {
      partIndex.set(`${provider}|${rangeIndex}`, parts.push({ kind: 'series', provider, rangeIndex, grains: [...grains].sort() }) - 1);
    }
    for (const [provider, dimensions] of dimensionsByProvider) {
      for (const dimension of dimensions) partIndex.set(`${provider}|${dimension}|${rangeIndex}`, parts.push({ kind: 'table', provider, rangeIndex, dimension }) - 1);
    }
  });
  return { parts, partIndex, ranges };
}

function assembleReport({ definition, range, compareRange }: ReportDataInput, plan: ReportPlan, sums: readonly (SeriesSums | TableSums)[]): ReportData {
  const part = <T>(key: string) => sums[plan.partIndex.get(key)!] as T;
  const data: ReportData = { kpis: [], charts: [], tables: [] };
  for (const widget of definition.widgets) {
    if (widget.type === 'table') {
      const key = `${widget.provider}|${widget.dimension}`;
      data.tables.push(assembleTable(widget, part<TableSums>(`${key}|0`), compareRange ? part<TableSums>(`${key}|1`) : null));
      continue;
    }
    const current = part<SeriesSums>(`${widget.provider}|0`);
    const previous = compareRange ? part<SeriesSums>(`${widget.provider}|1`) : null;
    if (widget.type === 'kpi') data.kpis.push(...assembleKpis(widget, current, previous));
    else data.charts.push(assembleChart(widget, range, compareRange, current, previous));
  }
  return data;
}

/** The live data of several reports, with one aggregation statement for all of them. */
export async function computeReportData(scope: WorkspaceScope, inputs: readonly ReportDataInput[]): Promise<ReportData[]> {
  const plans = inputs.map(planReport);
  // A report without a client has no data source: its parts stay empty.
  const requests = inputs.map((input, index) => ({ clientId: input.clientId ?? '', parts: input.clientId ? plans[index]!.parts : [], ranges: plans[index]!.ranges }));
  const sums = await queryReportSums(scope, requests);
  return inputs.map((input, index) => assembleReport(input, plans[index]!, sums[index]!));
}
