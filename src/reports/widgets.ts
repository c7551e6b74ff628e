// A report's widgets from the summed parts of its ranges: KPIs, charts and tables, and the shapes
// the report's data answers with. Pure: the sums come from report-sums.ts by way of engine.ts.
import { inputsOf, metricValue, type ProviderId } from './catalog.js';
import type { SeriesSums, Sums, TableSums } from './report-sums.js';
import type { DateRange } from '../dates/civil-date.js';
import { bucketCoverage, bucketsOf, type Granularity } from './date-presets.js';
import type { Widget } from './definition.js';

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

/**
 * A KPI per metric. Its change is null while its own range has no day of data (today before the day's facts
 * arrive): its sums read 0 there, and a change of −100 % would say the traffic stopped.
 */
export function assembleKpis(widget: Widget, current: SeriesSums, previous: SeriesSums | null): Kpi[] {
  const provider = widget.provider as ProviderId;
  return widget.metrics.map((metric) => {
    const value = valueOf(provider, metric, current.total);
    const previousValue = previous ? previousValueOf(provider, metric, previous.total) : null;
    const change = current.daysWithData ? relativeChange(value, previousValue) : null;
    return { widgetId: widget.id, metric, value, previousValue, change };
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
