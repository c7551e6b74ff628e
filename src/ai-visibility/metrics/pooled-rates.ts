// The metric contract: a rate over several rows is pooled — sum the counts and the runs,
// divide once. Never an average of per-row percentages; a zero denominator is null.

export interface ScanCounters {
  totalRuns: number;
  visibilityCount: number;
  mentionCount: number;
  totalMentionCount: number;
  positionedCount: number;
  positionSum: number;
  positiveCount: number;
  neutralCount: number;
  negativeCount: number;
}

export interface ScanRates {
  visibility: number | null;
  shareOfVoice: number | null;
  averagePosition: number | null;
  sentiment: number | null;
}

export const COUNTER_FIELDS = [
  'totalRuns',
  'visibilityCount',
  'mentionCount',
  'totalMentionCount',
  'positionedCount',
  'positionSum',
  'positiveCount',
  'neutralCount',
  'negativeCount',
] as const satisfies readonly (keyof ScanCounters)[];

export const ratio = (numerator: number, denominator: number): number | null =>
  denominator === 0 ? null : numerator / denominator;

export function ratesOf(counters: ScanCounters): ScanRates {
  const classified = counters.positiveCount + counters.neutralCount + counters.negativeCount;
  return {
    visibility: ratio(counters.visibilityCount, counters.totalRuns),
    shareOfVoice: ratio(counters.mentionCount, counters.totalMentionCount),
    averagePosition: ratio(counters.positionSum, counters.positionedCount),
    sentiment: ratio(counters.positiveCount - counters.negativeCount, classified),
  };
}

/** Every counter at zero: spread it into a sum to start from. */
export const NO_COUNTS: Readonly<ScanCounters> = Object.freeze(
  Object.fromEntries(COUNTER_FIELDS.map((field) => [field, 0])) as unknown as ScanCounters,
);

/**
 * Adds `row`'s counters into `sum`. Field by field, not a loop over COUNTER_FIELDS (a keyed load and
 * store per field): it runs for each of up to 1 000 rows of a metrics response.
 */
export function addCounters(sum: ScanCounters, row: ScanCounters): void {
  sum.totalRuns += row.totalRuns;
  sum.visibilityCount += row.visibilityCount;
  sum.mentionCount += row.mentionCount;
  sum.totalMentionCount += row.totalMentionCount;
  sum.positionedCount += row.positionedCount;
  sum.positionSum += row.positionSum;
  sum.positiveCount += row.positiveCount;
  sum.neutralCount += row.neutralCount;
  sum.negativeCount += row.negativeCount;
}

export function sumCounters(rows: readonly ScanCounters[]): ScanCounters {
  const total = { ...NO_COUNTS };
  for (const row of rows) addCounters(total, row);
  return total;
}

/** Pooled rates of several rows of one population (one locale). */
export const pooledRates = (rows: readonly ScanCounters[]): ScanRates => ratesOf(sumCounters(rows));

/** A tracked competitor's counters in one scan (the scan's runs and mentions are shared). */
export interface CompetitorCounters {
  name: string;
  visibilityCount: number;
  mentionCount: number;
  positionedCount: number;
  positionSum: number;
}

export const COMPETITOR_COUNTER_FIELDS = [
  'visibilityCount',
  'mentionCount',
  'positionedCount',
  'positionSum',
] as const satisfies readonly (keyof CompetitorCounters)[];

/** A competitor's counters with the runs and mentions of the same scans, and its pooled rates. */
export interface CompetitorMetrics extends CompetitorCounters {
  totalRuns: number;
  totalMentionCount: number;
  visibility: number | null;
  shareOfVoice: number | null;
  averagePosition: number | null;
}

/**
 * Rates of a competitor, pooled like the brand's: its counts over the runs and mentions of the scans that
 * report it.
 */
export function competitorMetrics(
  counters: CompetitorCounters,
  totalRuns: number,
  totalMentionCount: number,
): CompetitorMetrics {
  // Field by field, not spread: it runs for each competitor of up to 1 000 metrics rows.
  return {
    name: counters.name,
    visibilityCount: counters.visibilityCount,
    mentionCount: counters.mentionCount,
    positionedCount: counters.positionedCount,
    positionSum: counters.positionSum,
    totalRuns,
    totalMentionCount,
    visibility: ratio(counters.visibilityCount, totalRuns),
    shareOfVoice: ratio(counters.mentionCount, totalMentionCount),
    averagePosition: ratio(counters.positionSum, counters.positionedCount),
  };
}
