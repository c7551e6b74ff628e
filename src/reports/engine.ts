// The live report-data engine. Aggregation runs in SQL (grouped sums); Node only turns
// summed base parts into metric values. Widgets share parts: one "series" part per provider
// and range (the total plus every bucket grain its charts need) and one "table" part per
// provider, dimension and range; all parts of a report go to PostgreSQL as one statement.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { inputsOf, metricValue, type ProviderId } from './catalog.js';
import { queryReportSums, type Part, type SeriesSums, type Sums, type TableSums } from './report-sums.js';
import { daysBetweenInclusive, type DateRange } from '../dates/civil-date.js';
import { bucketCoverage, bucketsOf, type Granularity } from './date-presets.js';
import type { ReportDefinition, Widget } from './definition.js';

export interface Kpi {
  widgetId: string;
  metric: string;
  value: number | null;
  previousValue: number | null;
  change: number | null;
}

/** A bucket of a range: its first day, how much of it the range holds and how much of that has data. */
export interface BucketSpan {
  date: string;
  /** Days of the bucket inside the range; fewer than the bucket has when the range cuts it (`partial`). */
  daysInRange: number;
  partial: boolean;
  /** Days of those with facts (of the widget's provider): 0 is no data, not a bucket of zeros. */
  daysWithData: number;
}

export interface ChartPoint extends BucketSpan {
  value: number | null;
  previousValue: number | null;
  /** The compared range's bucket at the same position; null without a comparison or past its last bucket. */
  compareBucket: BucketSpan | null;
}

export interface Chart {
  widgetId: string;
  type: Widget['type'];
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

/** How much of a range has data: the days with facts of the report's least covered data source. */
export interface Coverage {
  days: number;
  daysWithData: number;
}

export interface ReportData {
  coverage: Coverage;
  /** Null without a comparison. */
  compareCoverage: Coverage | null;
  kpis: Kpi[];
  charts: Chart[];
  tables: Table[];
}

export const relativeChange = (value: number | null, previous: number | null): number | null =>
  value === null || previous === null || previous === 0 ? null : (value - previous) / Math.abs(previous);

const valueOf = (provider: ProviderId, metric: string, sums: Sums | undefined): number | null =>
  metricValue(provider, metric, sums ?? {});

/**
 * A comparison value: null when the comparison period (or its bucket, or its dimension value)
 * has no facts for a metric's inputs — there is nothing to compare with, which 0 would misstate
 * (a previous year before the data starts is not a year of zero sessions). A period with some
 * days of data sums those days. The asked range itself counts what it has: nothing recorded is 0.
 */
const previousValueOf = (provider: ProviderId, metric: string, sums: Sums | undefined): number | null =>
  sums && inputsOf(provider, metric).every((input) => input in sums) ? metricValue(provider, metric, sums) : null;

export function assembleKpis(widget: Widget, current: SeriesSums, previous: SeriesSums | null): Kpi[] {
  const provider = widget.provider as ProviderId;
  return widget.metrics.map((metric) => {
    const value = valueOf(provider, metric, current.total);
    const previousValue = previous ? previousValueOf(provider, metric, previous.total) : null;
    return { widgetId: widget.id, metric, value, previousValue, change: relativeChange(value, previousValue) };
  });
}

export function assembleChart(
  widget: Widget,
  range: DateRange,
  compareRange: DateRange | null,
  current: SeriesSums,
  previous: SeriesSums | null,
): Chart {
  const provider = widget.provider as ProviderId;
  const granularity = widget.granularity ?? 'day';
  const previousBuckets = compareRange ? bucketsOf(compareRange, granularity) : [];
  const spanOf = (bucket: string, of: DateRange, sums: SeriesSums | null) => {
    const summed = sums?.buckets[granularity].get(bucket);
    const span = { date: bucket, ...bucketCoverage(bucket, granularity, of), daysWithData: summed?.daysWithData ?? 0 };
    return { span, sums: summed?.sums };
  };
  // Buckets pair by position: the first week of the range with the first of the compared range.
  const pairs = bucketsOf(range, granularity).map((bucket, index) => {
    const previousBucket = previousBuckets[index];
    const before = compareRange && previousBucket ? spanOf(previousBucket, compareRange, previous) : null;
    return { now: spanOf(bucket, range, current), before };
  });
  return {
    widgetId: widget.id,
    type: widget.type,
    granularity,
    series: widget.metrics.map((metric) => ({
      metric,
      points: pairs.map(({ now, before }) => ({
        ...now.span,
        value: valueOf(provider, metric, now.sums),
        previousValue: before ? previousValueOf(provider, metric, before.sums) : null,
        compareBucket: before?.span ?? null,
      })),
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
  const previousValuesOf = (sums: Sums | undefined) =>
    widget.metrics.map((metric) => previousValueOf(provider, metric, sums));
  const nullValues = widget.metrics.map(() => null);
  return {
    widgetId: widget.id,
    dimension: widget.dimension!,
    columns: [...widget.metrics],
    rows: ranked.map(({ dimensionValue, sums }) => ({
      dimensionValue,
      values: valuesOf(sums),
      previousValues: previous ? previousValuesOf(previous.byValue.get(dimensionValue)) : nullValues,
    })),
    totals: {
      values: valuesOf(current.total),
      previousValues: previous ? previousValuesOf(previous.total) : nullValues,
    },
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
      partIndex.set(
        `${provider}|${rangeIndex}`,
        parts.push({ kind: 'series', provider, rangeIndex, grains: [...grains].sort() }) - 1,
      );
    }
    for (const [provider, dimensions] of dimensionsByProvider) {
      for (const dimension of dimensions)
        partIndex.set(
          `${provider}|${dimension}|${rangeIndex}`,
          parts.push({ kind: 'table', provider, rangeIndex, dimension }) - 1,
        );
    }
  });
  return { parts, partIndex, ranges };
}

/**
 * The coverage of one of the report's ranges: the fewest days with data among its parts over
 * that range, so that a report reading two providers is called partial when either one is.
 */
function coverageOf(plan: ReportPlan, sums: readonly (SeriesSums | TableSums)[], rangeIndex: number): Coverage {
  const counts = plan.parts.flatMap((part, index) =>
    part.rangeIndex === rangeIndex ? [sums[index]?.daysWithData ?? 0] : [],
  );
  return {
    days: daysBetweenInclusive(plan.ranges[rangeIndex]!),
    daysWithData: counts.length ? Math.min(...counts) : 0,
  };
}

function assembleReport(
  { definition, range, compareRange }: ReportDataInput,
  plan: ReportPlan,
  sums: readonly (SeriesSums | TableSums)[],
): ReportData {
  const part = <T>(key: string) => sums[plan.partIndex.get(key)!] as T;
  const data: ReportData = {
    coverage: coverageOf(plan, sums, 0),
    compareCoverage: compareRange ? coverageOf(plan, sums, 1) : null,
    kpis: [],
    charts: [],
    tables: [],
  };
  for (const widget of definition.widgets) {
    if (widget.type === 'table') {
      const key = `${widget.provider}|${widget.dimension}`;
      data.tables.push(
        assembleTable(widget, part<TableSums>(`${key}|0`), compareRange ? part<TableSums>(`${key}|1`) : null),
      );
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
export async function computeReportData(
  scope: WorkspaceScope,
  inputs: readonly ReportDataInput[],
): Promise<ReportData[]> {
  const plans = inputs.map(planReport);
  // A report without a client has no data source: its parts stay empty.
  const requests = inputs.map((input, index) => ({
    clientId: input.clientId ?? '',
    parts: input.clientId ? plans[index]!.parts : [],
    ranges: plans[index]!.ranges,
  }));
  const sums = await queryReportSums(scope, requests);
  return inputs.map((input, index) => assembleReport(input, plans[index]!, sums[index]!));
}
