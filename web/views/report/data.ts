// The report view's arguments, its operation's data (graphql/operations/views/view_report.graphql)
// and how a widget's metric is read.
import type { Direction } from '../common/change.js';
import type { Formats } from '../common/format.js';
import type { Args } from '../common/host.js';

export interface ReportArgs extends Args {
  id: string;
  datePreset?: string;
  comparePreset?: string;
}

export interface Widget {
  id: string;
  type: string;
  title: string;
  provider: string;
  metrics: string[];
  dimension: string | null;
}
export interface Kpi {
  widgetId: string;
  metric: string;
  value: number | null;
  previousValue: number | null;
  change: number | null;
}
/** A day, week or month of a range: how many of its days the range holds, and how many of those have data. */
export interface Span {
  date: string;
  daysInRange: number;
  partial: boolean;
  daysWithData: number;
}
export interface Point extends Span {
  value: number | null;
  previousValue: number | null;
  compareBucket: Span | null;
}
export interface ChartData {
  widgetId: string;
  type: string;
  granularity: string | null;
  series: { metric: string; points: Point[] }[];
}
/** A range with how many of its days have data. */
export interface CoveredRange {
  from: string;
  to: string;
  days: number;
  daysWithData: number;
}
export interface TableData {
  widgetId: string;
  dimension: string;
  columns: string[];
  rows: { dimensionValue: string; values: (number | null)[]; previousValues: (number | null)[] | null }[];
  totals: { values: (number | null)[]; previousValues: (number | null)[] | null };
}
export interface ReportData {
  report: {
    data: {
      id: string;
      name: string;
      definition: { widgets: Widget[]; dateConfig: { datePreset: string; comparePreset: string; timezone: string } };
    } | null;
  } | null;
  reportData: {
    data: {
      reportId: string;
      /** ISO 4217 code of its money figures; null until the client's is set. */
      currency: string | null;
      range: CoveredRange;
      compareRange: CoveredRange | null;
      kpis: Kpi[];
      charts: ChartData[];
      tables: TableData[];
    } | null;
  } | null;
  metricCatalog: {
    providers: { id: string; label: string; metrics: { id: string; unit: string; direction: Direction }[] }[];
  };
}

/** The report's range and the one it is compared with (null without a comparison). */
export interface Ranges {
  current: CoveredRange;
  compared: CoveredRange | null;
}
/** The day `days` after an ISO date. */
export const laterBy = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A widget's metric as the catalogue declares it: written in its unit (a rate of 0.03 reads 3 %), judged by its
 * direction.
 */
export type Written = (value: number | null | undefined) => string;
export interface MetricMeaning {
  format: Written;
  axis: Written;
  direction: Direction;
  ranked: boolean;
}
export type MeaningOf = (widgetId: string, metric: string) => MetricMeaning;
/**
 * How a change is shown: by the metric's direction, unless `unlike` says why the periods are not
 * like for like; `empty` when the current period has no data at all (its figures are not 0 yet).
 */
export interface Changes {
  f: Formats;
  unlike: string | null;
  empty: boolean;
}

// The catalogue's metrics that marketers read as initials: "ctr" is "CTR".
const INITIALISMS = new Set(['ctr', 'cpc', 'cpa', 'cpm', 'roas']);

/** An id as words: "last_30_days" reads "last 30 days", "ctr" reads "CTR". */
export const words = (id: string) =>
  id
    .split('_')
    .map((word) => (INITIALISMS.has(word) ? word.toUpperCase() : word))
    .join(' ');
