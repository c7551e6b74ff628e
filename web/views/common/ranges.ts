// The ranges a view offers, within what its reads accept. Pure.

const RANGES = [7, 30, 90, 365];

/**
 * The widest range the answers view can show: its prompts with their totals are read over at most
 * 60 days (the server's prompts range rule, docs/limits.md); a test holds the two equal.
 */
export const ANSWERS_WIDEST_RANGE_DAYS = 60;

/** Day counts to offer: the usual ones up to `widest` (and `widest` itself), with the shown range's own. */
export function rangeChoices(shownDays: number, widest = Number.POSITIVE_INFINITY): number[] {
  const usual = RANGES.filter((days) => days <= widest);
  if (Number.isFinite(widest) && !usual.includes(widest)) usual.push(widest);
  return usual.includes(shownDays) ? usual : [...usual, shownDays].sort((a, b) => a - b);
}
