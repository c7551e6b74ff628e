// A scan as the metrics rows read it: one JSON array of its fields, in SCAN_FIELDS' order. pg then
// parses one field a row instead of thirteen (with up to 1 000 rows a response, pg's row parsing
// was the largest part of the read after the answer's JSON); the reader and the statement both
// take the order from SCAN_FIELDS, so they cannot drift apart.
import type { AiModel } from '../common/models.js';
import { COUNTER_COLUMNS } from '../scans/scan-columns.js';
import { COUNTER_FIELDS, type CompetitorCounters, type ScanCounters } from './pooled-rates.js';

const SCAN_FIELDS = ['date', 'model', 'locale', ...COUNTER_FIELDS, 'competitors'] as const;
type ScanField = (typeof SCAN_FIELDS)[number];

const SCAN_COLUMNS: Record<ScanField, string> = {
  date: 'date',
  model: 'model',
  locale: 'locale',
  ...COUNTER_COLUMNS,
  competitors: 'competitors',
};

/** `json_build_array(date, model, …)` over the scans table's columns. */
export const SCAN_ARRAY_SQL = `json_build_array(${SCAN_FIELDS.map((field) => SCAN_COLUMNS[field]).join(', ')})`;

/** The values of SCAN_FIELDS, as JSON.parse gives them (a date as `YYYY-MM-DD`). */
export type StoredScan = readonly unknown[] & { readonly __storedScan?: never };

const at = Object.fromEntries(SCAN_FIELDS.map((field, index) => [field, index])) as Record<ScanField, number>;

export const scanDate = (scan: StoredScan) => scan[at.date] as string;
export const scanModel = (scan: StoredScan) => scan[at.model] as AiModel;
export const scanLocale = (scan: StoredScan) => scan[at.locale] as string;
export const scanCompetitors = (scan: StoredScan) => scan[at.competitors] as CompetitorCounters[];

// Runs for every one of up to 1 000 rows of a response, so one literal rather than a loop over
// COUNTER_FIELDS (a keyed store per field; docs/decisions/ai-visibility-metrics-reads.md); the
// types make a missing or extra counter a compile error.
export function scanCountersOf(scan: StoredScan): ScanCounters {
  return {
    totalRuns: scan[at.totalRuns] as number,
    visibilityCount: scan[at.visibilityCount] as number,
    mentionCount: scan[at.mentionCount] as number,
    totalMentionCount: scan[at.totalMentionCount] as number,
    positionedCount: scan[at.positionedCount] as number,
    positionSum: scan[at.positionSum] as number,
    positiveCount: scan[at.positiveCount] as number,
    neutralCount: scan[at.neutralCount] as number,
    negativeCount: scan[at.negativeCount] as number,
  };
}
