// The totals of a project's metrics added up from its rows, when the rows are every scan of the
// range: the same grouped rows the totals statements return (per (locale, model), and per
// (locale, competitor) with the runs and mentions of the scans that report it), in the order those
// statements give them (code points, as their `COLLATE "C"` orders), so localeTotalsOf pools them alike.
import { byCodePoint } from '../common/code-point-order.js';
import type { AiModel } from '../common/models.js';
import {
  addCounters,
  NO_COUNTS,
  type CompetitorCounters,
  type CompetitorMetrics,
  type ScanCounters,
} from './pooled-rates.js';

/** Counters summed per (locale, model), and how many scans they sum. */
export type ModelCountersRow = ScanCounters & { locale: string; model: AiModel; row_count: number };
/** A competitor's counters summed per locale, with the runs and mentions of the scans that report it. */
export type CompetitorTotalsRow = CompetitorCounters & { locale: string; totalRuns: number; totalMentionCount: number };
/** A metrics row as these sums read it. */
type MetricsRow = ScanCounters & { locale: string; model: AiModel; competitors: readonly CompetitorMetrics[] };

const byLocaleThen =
  <Row extends { locale: string }>(second: (row: Row) => string) =>
  (a: Row, b: Row) =>
    byCodePoint(a.locale, b.locale) || byCodePoint(second(a), second(b));

interface LocaleSums {
  locale: string;
  models: ModelCountersRow[];
  competitors: CompetitorTotalsRow[];
}

/** Sums per (locale, model) and per (locale, competitor name) over rows that are all of the range. */
export function groupedTotalsOf(rows: readonly MetricsRow[]): {
  modelRows: ModelCountersRow[];
  competitorRows: CompetitorTotalsRow[];
} {
  // A handful of locales, models and competitors: found by comparing, not hashed (each row's
  // strings are fresh, and hashing ~3 keys a row showed in the profile of a 1 000-row answer).
  const locales: LocaleSums[] = [];
  for (const row of rows) {
    let sums = locales.find((entry) => entry.locale === row.locale);
    if (!sums) locales.push((sums = { locale: row.locale, models: [], competitors: [] }));
    let model = sums.models.find((entry) => entry.model === row.model);
    if (!model) sums.models.push((model = modelRowOf(row)));
    model.row_count += 1;
    addCounters(model, row);
    for (const competitor of row.competitors) {
      let pooled = sums.competitors.find((entry) => entry.name === competitor.name);
      if (!pooled) sums.competitors.push((pooled = competitorRowOf(row.locale, competitor.name)));
      addCompetitor(pooled, competitor);
    }
  }
  return {
    modelRows: locales.flatMap((entry) => entry.models).sort(byLocaleThen((row) => row.model)),
    competitorRows: locales.flatMap((entry) => entry.competitors).sort(byLocaleThen((row) => row.name)),
  };
}

const competitorRowOf = (locale: string, name: string): CompetitorTotalsRow => ({
  locale,
  name,
  visibilityCount: 0,
  mentionCount: 0,
  positionedCount: 0,
  positionSum: 0,
  totalRuns: 0,
  totalMentionCount: 0,
});

function addCompetitor(pooled: CompetitorTotalsRow, competitor: CompetitorMetrics): void {
  pooled.visibilityCount += competitor.visibilityCount;
  pooled.mentionCount += competitor.mentionCount;
  pooled.positionedCount += competitor.positionedCount;
  pooled.positionSum += competitor.positionSum;
  pooled.totalRuns += competitor.totalRuns;
  pooled.totalMentionCount += competitor.totalMentionCount;
}

// Once per (locale, model): a spread is cheap here, unlike per row.
const modelRowOf = (row: MetricsRow): ModelCountersRow => ({
  locale: row.locale,
  model: row.model,
  row_count: 0,
  ...NO_COUNTS,
});
