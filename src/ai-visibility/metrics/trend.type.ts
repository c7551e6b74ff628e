// A project's rates over time on the graph, and the points a trend can return (its GraphQL cost).
import { builder } from '../../graphql/builder.js';
import { AiModelEnum } from '../../graphql/enums.js';
import { bounded } from '../../graphql/cost.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { daysBetweenInclusive } from '../../dates/civil-date.js';
import { ProjectType } from '../projects/project.type.js';
import { metricsRange, runFilterOf, type RunFilterArgs } from '../common/read-filters.js';
import { localesOf, modelsOf } from '../common/read-rows.js';
import { runFilterArgs } from '../common/run-filter-args.type.js';
import { queryTrend, TREND_GRANULARITIES, type TrendGranularity, type TrendPoint } from './trend.js';

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
const TrendPointType = builder.objectRef<TrendPoint>('AiVisibilityTrendPoint').implement({
  description: 'One period of one model in one locale: its rates pooled from the scans of the period.',
  fields: (t) => ({
    period: t.expose('period', { type: 'Date', description: 'First day of the period (weeks start on Monday).' }),
    model: t.expose('model', { type: AiModelEnum }),
    locale: t.exposeString('locale'),
    totalRuns: t.exposeInt('totalRuns'),
    visibility: t.exposeFloat('visibility', { nullable: true }),
    shareOfVoice: t.exposeFloat('shareOfVoice', { nullable: true }),
    averagePosition: t.exposeFloat('averagePosition', { nullable: true }),
    sentiment: t.exposeFloat('sentiment', { nullable: true }),
  }),
});

const TrendGranularityEnum = builder.enumType('AiVisibilityTrendGranularity', { values: TREND_GRANULARITIES });

builder.objectField(ProjectType, 'trend', (t) =>
  t.field({
    type: [TrendPointType],
    description: 'Rates per day, week or month, per model and locale, each period pooled on its own.',
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: {
      granularity: t.arg({ type: TrendGranularityEnum, required: false, description: 'day (default), week or month.' }),
      ...runFilterArgs(t.arg),
    },
    complexity: (args, ctx) => bounded(trendPoints(args, ctx.now)),
    resolve: (project, args, ctx) =>
      queryTrend(ctx.workspace, project.id, runFilterOf(args, ctx.now), args.granularity ?? 'day'),
  }),
);
