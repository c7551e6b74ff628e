// How many rows an AI-visibility read can return, for the GraphQL cost (graphql/cost.ts), which is
// computed before anything runs, without the project: a list per locale counts the most locales a
// project's data can span (PROJECT_LIMITS), a list per model the fixed models, and one of either
// when the arguments name it. test/graphql/cost-counts-rows.test.ts compares with what is returned.
import { daysBetweenInclusive } from '../../dates/civil-date.js';
import { AI_MODELS } from './models.js';
import { PROJECT_LIMITS } from '../projects/project-management.js';
import { metricsRange, type RunFilterArgs } from './read-filters.js';
import type { TrendGranularity } from '../metrics/trend.js';

export const MAX_ROWS = {
  locales: PROJECT_LIMITS.locales,
  models: AI_MODELS.length,
  competitors: PROJECT_LIMITS.competitors,
} as const;

/** Locales a read returns rows for: one when `locale` names it. */
export const localesOf = (args: { locale?: string | null | undefined }) => (args.locale ? 1 : MAX_ROWS.locales);
const modelsOf = (args: { model?: string | null | undefined }) => (args.model ? 1 : MAX_ROWS.models);

/**
 * A trend's points: one per period of the range, model and locale. An unreadable range counts
 * none here; the resolver refuses it, naming the argument.
 */
export function trendPoints(
  args: RunFilterArgs & { granularity?: TrendGranularity | null | undefined },
  now: Date,
): number {
  let days: number;
  try {
    days = daysBetweenInclusive(metricsRange(args.dateFrom, args.dateTo, now));
  } catch {
    return 0;
  }
  // A week or a month cut by the range's ends adds one period at each end.
  const periods =
    args.granularity === 'week'
      ? Math.ceil(days / 7) + 1
      : args.granularity === 'month'
        ? Math.ceil(days / 28) + 1
        : days;
  return periods * modelsOf(args) * localesOf(args);
}
