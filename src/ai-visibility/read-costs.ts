// What an AI-visibility read can return, as the GraphQL cost counts it (graphql/cost.ts): the cost
// is computed before anything runs, without the project, so a list per locale counts the most
// locales a project's data can span (PROJECT_LIMITS), a list per model the fixed models, and one
// locale or model when the arguments name it. test/graphql/cost-counts-rows.test.ts compares.
import { bounded, sizedList } from '../graphql/cost.js';
import { daysBetweenInclusive } from '../dates/civil-date.js';
import { AI_MODELS } from './models.js';
import { PROJECT_LIMITS } from './project-management.js';
import { metricsRange, type RunFilterArgs } from './read-filters.js';
import type { TrendGranularity } from './trend.js';

const localesOf = (args: { locale?: string | null | undefined }) => (args.locale ? 1 : PROJECT_LIMITS.locales);
const modelsOf = (args: { model?: string | null | undefined }) => (args.model ? 1 : AI_MODELS.length);

/** One row per locale (a prompt's or a project's totals, a period comparison). */
export const PER_LOCALE = bounded(PROJECT_LIMITS.locales);
/** One row per model (a locale's byModel). */
export const PER_MODEL = bounded(AI_MODELS.length);
/** One row per competitor (a locale's or a scan's competitors, a run's). */
export const PER_COMPETITOR = bounded(PROJECT_LIMITS.competitors);

/** A locale list (metrics of a prompt): one row per locale, or one when `locale` names it. */
export const perLocaleOf = (args: { locale?: string | null | undefined }) => bounded(localesOf(args));

/** `limit` rows per locale (search queries, sources, citation gaps, each opportunity list). */
export const limitPerLocale = (fallback: number, cap: number) => (args: { limit?: number | null | undefined; locale?: string | null | undefined }) =>
  bounded(sizedList(args.limit, fallback, cap).multiplier * localesOf(args));

/**
 * A trend's points: one per period of the range, model and locale. An unreadable range costs
 * nothing here; the resolver refuses it, naming the argument.
 */
export function trendCost(args: RunFilterArgs & { granularity?: TrendGranularity | null | undefined }, now: Date) {
  let days: number;
  try {
    days = daysBetweenInclusive(metricsRange(args.dateFrom, args.dateTo, now));
  } catch {
    return bounded(0);
  }
  // A week or a month cut by the range's ends adds one period at each end.
  const periods = args.granularity === 'week' ? Math.ceil(days / 7) + 1 : args.granularity === 'month' ? Math.ceil(days / 28) + 1 : days;
  return bounded(periods * modelsOf(args) * localesOf(args));
}
