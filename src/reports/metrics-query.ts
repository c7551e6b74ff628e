// Ad-hoc questions about a client's data, answered by the report engine itself: a one-widget
// definition (a table of metrics by one dimension) validated like any report's, so the numbers
// are the ones a report with that widget shows. Pure parts here; the GraphQL fields run them.
import { invalidParameter } from '../errors/index.js';
import { formatZodIssues, reportDefinitionSchema, type ReportDefinition } from './definition.js';
import type { TableRow } from './engine.js';
import { METRIC_DECIMALS } from './catalog.js';

export interface MetricsQuestion {
  provider: string;
  metrics: string[];
  dimension: string;
  limit: number;
  datePreset: string;
  comparePreset: string;
  timezone: string;
}

/** The definition of a one-table report answering the question; a bad provider, metric or dimension is named. */
export function questionDefinition(question: MetricsQuestion): ReportDefinition {
  const parsed = reportDefinitionSchema.safeParse({
    widgets: [
      {
        id: 'query',
        type: 'table',
        title: 'query',
        provider: question.provider,
        metrics: question.metrics,
        dimension: question.dimension,
        limit: question.limit,
      },
    ],
    dateConfig: { datePreset: question.datePreset, comparePreset: question.comparePreset, timezone: question.timezone },
  });
  if (!parsed.success)
    throw invalidParameter('metrics', `Not a query of this catalog: ${formatZodIssues(parsed.error)}`);
  return parsed.data;
}

export interface Mover {
  dimensionValue: string;
  value: number | null;
  previousValue: number | null;
  /** value − previousValue. */
  delta: number | null;
  /** Relative change; null when the previous value is 0 or missing. */
  change: number | null;
}

const SCALE = 10 ** METRIC_DECIMALS;

/**
 * `value − previous`, exact when both are whole millionths, as every sum is: a float subtraction wrote
 * 1000.58 − 606.2 as 394.37999999999965. A ratio (CPC, CTR) is subtracted as it is.
 */
export function difference(value: number, previous: number): number {
  const [a, b] = [value * SCALE, previous * SCALE];
  const [whole, wholePrevious] = [Math.round(a), Math.round(b)];
  // Within a float's error of a whole number of millionths.
  const millionths = (x: number, rounded: number) => Math.abs(x - rounded) <= Math.max(1, Math.abs(x)) * 1e-12;
  return millionths(a, whole) && millionths(b, wholePrevious) ? (whole - wholePrevious) / SCALE : value - previous;
}

/** The rows whose first metric moved most between the two periods, by absolute difference. */
export function topMovers(rows: readonly TableRow[], limit: number): Mover[] {
  return rows
    .map((row) => {
      const value = row.values[0] ?? null;
      const previousValue = row.previousValues?.[0] ?? null;
      const delta = value !== null && previousValue !== null ? difference(value, previousValue) : null;
      return {
        dimensionValue: row.dimensionValue,
        value,
        previousValue,
        delta,
        change: delta !== null && previousValue ? delta / Math.abs(previousValue) : null,
      };
    })
    .filter((mover) => mover.delta !== null && mover.delta !== 0)
    .sort((a, b) => Math.abs(b.delta!) - Math.abs(a.delta!) || a.dimensionValue.localeCompare(b.dimensionValue))
    .slice(0, limit);
}
