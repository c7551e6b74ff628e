// What a scan line of the ingest door holds, for tests that send one: counters that fire no rule
// against the same counters the day before, and a run that names no one.

/** A scan's counters that fire no rule against the same counters the day before. */
export const SCAN_COUNTERS = {
  totalRuns: 100,
  visibilityCount: 50,
  mentionCount: 40,
  totalMentionCount: 100,
  positionedCount: 40,
  positionSum: 80,
  positiveCount: 20,
  neutralCount: 10,
  negativeCount: 10,
};

/** One run that mentions no brand, with `extra` (its citations, the pages it read). */
export const quietRun = <T extends object>(extra: T) => ({
  prompt: 'p',
  answer: 'a',
  brandMentions: 0,
  totalMentions: 0,
  position: null,
  sentiment: null,
  ...extra,
});
