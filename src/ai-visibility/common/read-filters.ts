// The arguments of AI-visibility reads turned into filters, checked once for every door: the
// GraphQL resolvers (v1, the web app, MCP) and the streaming export call the same functions.
import type { DateRange } from '../../dates/civil-date.js';
import { defaultedRange, type RangeRule } from '../../dates/date-range.js';
import { intBounds, invalidParameter } from '../../errors/index.js';
import { canonicalLocale, LOCALE_RULE } from './locales.js';
import type { RunFilter } from './run-filter.js';

/**
 * Reads of runs (answers, sources, search queries, opportunities, citation gaps, trends): their
 * work grows with the runs of the range, so a range is at most 400 days, a year and a month to
 * compare it with. Two reads do more per run and take less: the prompts list pools every prompt's
 * runs per locale, answers by domain count the matching citations
 * (docs/decisions/ai-visibility-read-ranges.md).
 */
export const RUN_RANGE: RangeRule = { defaultDays: 30, maxDays: 400 };
export const PROMPTS_RANGE: RangeRule = { defaultDays: 30, maxDays: 60 };
export const DOMAIN_RANGE: RangeRule = { defaultDays: 30, maxDays: 90 };
/**
 * Reads of scans (metrics, period comparisons, rule previews): one row per day, model and locale, at most
 * three years.
 */
export const SCAN_RANGE: RangeRule = { defaultDays: 30, maxDays: 3 * 366 };

/**
 * A read's dateFrom/dateTo on the one range rule (dates/date-range.ts): dateTo defaults to today
 * (UTC, the days scans and runs are stored as), dateFrom to `defaultDays` − 1 days before it, so
 * dateFrom alone means dateFrom through today (what "every answer since" expects); a range wider
 * than the read's `maxDays` is refused, naming dateFrom.
 */
export const metricsRange = (
  dateFrom: string | null | undefined,
  dateTo: string | null | undefined,
  now: Date,
  rule: RangeRule = RUN_RANGE,
): DateRange => defaultedRange(dateFrom, dateTo, now, rule);

export interface RunFilterArgs {
  dateFrom?: string | null | undefined;
  dateTo?: string | null | undefined;
  model?: string | null | undefined;
  locale?: string | null | undefined;
}

/** A locale filter in canonical case, or null for none; a malformed tag is a 400 naming `locale`. */
export function localeFilterOf(locale: string | null | undefined): string | null {
  if (locale == null) return null;
  const canonical = canonicalLocale(locale);
  if (!canonical) throw invalidParameter('locale', `locale must be ${LOCALE_RULE}.`);
  return canonical;
}

export function runFilterOf(args: RunFilterArgs, now: Date, rule: RangeRule = RUN_RANGE): RunFilter {
  const locale = localeFilterOf(args.locale);
  return { range: metricsRange(args.dateFrom, args.dateTo, now, rule), model: args.model ?? null, locale };
}

// Each `limit` a read takes, declared once (graphql/bounded-int.ts). The defaults keep an answer
// with default arguments under 100 000 characters on the demo data, the tool limit of AI
// assistants (test/rest/default-sizes.test.ts); a caller that wants more asks for it.
/** Answers per page: an answer carries its text, citations and pages read. */
export const ANSWERS_LIMIT = intBounds(1, 500, 20);
/** Rows per locale of the sources and search-queries lists. */
export const ROWS_PER_LOCALE_LIMIT = intBounds(1, 500, 100);
/** Sites per locale of a project's citation gaps (graph only). */
export const CITATION_GAPS_LIMIT = intBounds(1, 500, 20);
/** Items per list and locale of the opportunities. */
export const OPPORTUNITIES_LIMIT = intBounds(1, 100, 20);
/** Metrics rows (date × model × locale), most recent first; the instance's METRICS_ROW_CAP still applies. */
export const METRICS_ROWS_LIMIT = intBounds(1, 1000, 50);
/** Prompts, oldest first: each carries its totals per locale and model; the instance's LIST_ROW_CAP still applies. */
export const PROMPTS_LIMIT = intBounds(1, 500, 10);
