// The scans table's column for each counter of the metric contract, and the select list that
// reads them under their contract names. Metrics, the scans connection and ingestion share it.
import { COUNTER_FIELDS } from '../metrics/pooled-rates.js';

export const COUNTER_COLUMNS: Record<(typeof COUNTER_FIELDS)[number], string> = {
  totalRuns: 'total_runs',
  visibilityCount: 'visibility_count',
  mentionCount: 'mention_count',
  totalMentionCount: 'total_mention_count',
  positionedCount: 'positioned_count',
  positionSum: 'position_sum',
  positiveCount: 'positive_count',
  neutralCount: 'neutral_count',
  negativeCount: 'negative_count',
};

/** `total_runs AS "totalRuns", …` for every counter. */
export const COUNTER_SELECT = COUNTER_FIELDS.map((field) => `${COUNTER_COLUMNS[field]} AS "${field}"`).join(', ');
