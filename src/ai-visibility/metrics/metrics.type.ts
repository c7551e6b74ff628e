import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { AiModelEnum } from '../../graphql/enums.js';
import { ListMeta, type ListMetaShape } from '../../graphql/envelope.js';
import { DateRangeType } from '../../reports/report-data.type.js';
import type { DateRange } from '../../dates/civil-date.js';
import { withinBounds } from '../../errors/index.js';
import { boundedIntArg } from '../../graphql/bounded-int.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { periodComparisonArgs } from '../../graphql/period-args.js';
import { ProjectType } from '../projects/project.type.js';
import { projectRead } from '../projects/project-read.type.js';
import { type LocaleTotals, type MetricsRow, type ModelTotals } from './metrics.js';
import type { CompetitorMetrics, ScanCounters, ScanRates } from './pooled-rates.js';
import {
  METRICS_ROWS_LIMIT,
  metricsRange,
  rangeRuleText,
  RUN_RANGE,
  runFilterOf,
  SCAN_RANGE,
  type RangeRule,
  type RunFilterArgs,
} from '../shared/read-filters.js';
import type { RunFilter } from '../shared/run-filter.js';
import { LOCALE_PATTERN, MAX_LOCALE_LENGTH } from '../shared/locales.js';
import { compareLocales, RATE_FIELDS, type LocaleComparison, type PeriodRates } from './period-comparison.js';
import { queryTrend, TREND_GRANULARITIES, type TrendPoint } from './trend.js';
import { bounded } from '../../graphql/cost.js';
import { MAX_ROWS, trendPoints } from '../shared/read-rows.js';

type CountersAndRates = ScanCounters & ScanRates;

export type CountersFieldBuilder = PothosSchemaTypes.ObjectFieldBuilder<
  typeof builder.$inferSchemaTypes,
  CountersAndRates
>;

/** Counter and rate fields shared by rows, per-model totals and per-locale totals. */
export const countersAndRates = (t: CountersFieldBuilder) => ({
  totalRuns: t.exposeInt('totalRuns'),
  visibilityCount: t.exposeInt('visibilityCount', { description: 'Runs that mention the brand.' }),
  mentionCount: t.exposeInt('mentionCount', { description: 'Mentions of the brand.' }),
  totalMentionCount: t.exposeInt('totalMentionCount', { description: 'Mentions of all tracked brands.' }),
  positionedCount: t.exposeInt('positionedCount'),
  positionSum: t.exposeInt('positionSum'),
  positiveCount: t.exposeInt('positiveCount'),
  neutralCount: t.exposeInt('neutralCount'),
  negativeCount: t.exposeInt('negativeCount'),
  visibility: t.exposeFloat('visibility', { nullable: true, description: 'visibilityCount / totalRuns.' }),
  shareOfVoice: t.exposeFloat('shareOfVoice', { nullable: true, description: 'mentionCount / totalMentionCount.' }),
  averagePosition: t.exposeFloat('averagePosition', { nullable: true, description: 'positionSum / positionedCount.' }),
  sentiment: t.exposeFloat('sentiment', {
    nullable: true,
    description: '(positive - negative) / (positive + neutral + negative), in -1..1.',
  }),
});

const CompetitorType = builder.objectRef<CompetitorMetrics>('AiVisibilityCompetitor').implement({
  description: 'A tracked competitor, counted in the same runs and mentions as the brand and pooled the same way.',
  fields: (t) => ({
    name: t.exposeString('name'),
    visibilityCount: t.exposeInt('visibilityCount', { description: 'Runs that mention the competitor.' }),
    mentionCount: t.exposeInt('mentionCount', { description: 'Mentions of the competitor.' }),
    positionedCount: t.exposeInt('positionedCount'),
    positionSum: t.exposeInt('positionSum'),
    totalRuns: t.exposeInt('totalRuns', { description: 'Runs of the scans that report this competitor.' }),
    totalMentionCount: t.exposeInt('totalMentionCount', {
      description: 'Mentions of all tracked brands in those scans.',
    }),
    visibility: t.exposeFloat('visibility', { nullable: true, description: 'visibilityCount / totalRuns.' }),
    shareOfVoice: t.exposeFloat('shareOfVoice', { nullable: true, description: 'mentionCount / totalMentionCount.' }),
    averagePosition: t.exposeFloat('averagePosition', {
      nullable: true,
      description: 'positionSum / positionedCount.',
    }),
  }),
});

const MetricsRowType = builder.objectRef<MetricsRow>('AiVisibilityMetricsRow').implement({
  description: 'One (date, model, locale) of a project.',
  fields: (t) => ({
    // Exposed properties (no resolver functions): graphql-jit reads them inline, which counts
    // on the 1 000 rows of a metrics response.
    date: t.expose('date', { type: 'Date' }),
    model: t.expose('model', { type: AiModelEnum }),
    locale: t.exposeString('locale'),
    ...countersAndRates(t as unknown as CountersFieldBuilder),
    competitors: t.expose('competitors', {
      type: [CompetitorType],
      description: 'Tracked competitors reported in this scan.',
      complexity: bounded(MAX_ROWS.competitors),
    }),
  }),
});

const ModelTotalsType = builder.objectRef<ModelTotals>('AiVisibilityModelTotals').implement({
  fields: (t) => ({
    model: t.expose('model', { type: AiModelEnum }),
    ...countersAndRates(t as unknown as CountersFieldBuilder),
  }),
});

export const LocaleTotalsType = builder.objectRef<LocaleTotals>('AiVisibilityLocaleTotals').implement({
  description: 'Pooled totals of one locale over every row of the filtered range.',
  fields: (t) => ({
    locale: t.exposeString('locale'),
    ...countersAndRates(t as unknown as CountersFieldBuilder),
    byModel: t.expose('byModel', { type: [ModelTotalsType], complexity: bounded(MAX_ROWS.models) }),
    competitors: t.expose('competitors', {
      type: [CompetitorType],
      description: 'Each competitor pooled over the scans of this locale that report it.',
      complexity: bounded(MAX_ROWS.competitors),
    }),
  }),
});

interface MetricsShape {
  projectId: string;
  range: DateRange;
  rows: MetricsRow[];
  totals: LocaleTotals[];
}

const MetricsType = builder.objectRef<MetricsShape>('AiVisibilityMetrics').implement({
  fields: (t) => ({
    projectId: t.exposeString('projectId'),
    range: t.expose('range', { type: DateRangeType }),
    rows: t.expose('rows', {
      type: [MetricsRowType],
      description: 'Most recent first, capped; see meta.',
      complexity: (_args: unknown, ctx: GraphQLContext) => bounded(ctx.config.METRICS_ROW_CAP),
    }),
    totals: t.expose('totals', { type: [LocaleTotalsType], complexity: bounded(MAX_ROWS.locales) }),
  }),
});

const MetricsEnvelope = builder
  .objectRef<{ data: MetricsShape; meta: ListMetaShape }>('AiVisibilityMetricsResult')
  .implement({
    fields: (t) => ({
      data: t.expose('data', { type: MetricsType }),
      meta: t.expose('meta', { type: ListMeta, description: 'total and truncated describe rows.' }),
    }),
  });

/** The filter of every AI-visibility read: a date range (within the read's rule), a model and a locale. */
export const runFilterArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>, rule: RangeRule = RUN_RANGE) => ({
  // No default: leaving the model or locale out means every one (documented, since a form that
  // sends an enum's first value for an unset field would filter silently).
  model: arg({ type: AiModelEnum, required: false, description: 'Only this model; leave it out for every model.' }),
  dateFrom: arg({
    type: 'Date',
    required: false,
    description: `First day (inclusive); default: ${rule.defaultDays - 1} days before dateTo. ${rangeRuleText(rule)}`,
  }),
  dateTo: arg({ type: 'Date', required: false, description: 'Last day (inclusive); default: today (UTC).' }),
  locale: arg.string({
    required: false,
    // What the server checks (ai-visibility/locales.ts), for the OpenAPI document to state.
    extensions: { pattern: LOCALE_PATTERN, maxLength: MAX_LOCALE_LENGTH },
    description:
      'Only this locale: a BCP 47 tag such as en-US, in any case (en-us is en-US); leave it out for every locale. ' +
      'A tag the project does not track gives an empty answer; a malformed one is refused.',
  }),
});

const metricsArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  ...runFilterArgs(arg, SCAN_RANGE),
  limit: boundedIntArg(
    arg,
    METRICS_ROWS_LIMIT,
    'Rows, most recent first (meta.total counts them all; totals cover every row)',
  ),
});

/** A project's metrics; projects asked together with the same arguments share three statements. */
async function projectMetrics(project: { id: string }, filter: RunFilter, rows: number, ctx: GraphQLContext) {
  const result = await ctx.loaders.metrics.load({ project, filter, rows });
  return {
    data: { projectId: project.id, range: filter.range, rows: result.rows, totals: result.totals },
    meta: { total: result.total, truncated: result.total > result.rows.length },
  };
}

projectRead({
  root: 'aiVisibilityMetrics',
  field: 'metrics',
  description: 'Snapshot metrics of a project: rows per (date, model, locale) and pooled totals per locale.',
  what: 'snapshot metrics',
  type: MetricsEnvelope,
  args: metricsArgs,
  read: (args: RunFilterArgs & { limit?: number | null }, ctx) => {
    const filter = runFilterOf(args, ctx.now, SCAN_RANGE);
    const rows = withinBounds(args.limit, METRICS_ROWS_LIMIT);
    return (project) => projectMetrics(project, filter, rows, ctx);
  },
});

const PeriodRatesType = builder.objectRef<PeriodRates>('AiVisibilityPeriodRates').implement({
  description: 'Pooled rates of one locale over one period.',
  fields: (t) => ({
    totalRuns: t.exposeInt('totalRuns'),
    visibility: t.exposeFloat('visibility', { nullable: true }),
    shareOfVoice: t.exposeFloat('shareOfVoice', { nullable: true }),
    averagePosition: t.exposeFloat('averagePosition', { nullable: true }),
    sentiment: t.exposeFloat('sentiment', { nullable: true }),
  }),
});

const RateDeltaType = builder
  .objectRef<Record<(typeof RATE_FIELDS)[number], number | null>>('AiVisibilityRateDelta')
  .implement({
    description:
      "Current minus previous, in the rates' own units (0..1 for visibility and share of voice); null when either side has no data.",
    fields: (t) =>
      Object.fromEntries(RATE_FIELDS.map((field) => [field, t.exposeFloat(field, { nullable: true })])) as never,
  });

const LocaleComparisonType = builder.objectRef<LocaleComparison>('AiVisibilityLocaleComparison').implement({
  fields: (t) => ({
    locale: t.exposeString('locale'),
    current: t.expose('current', { type: PeriodRatesType, nullable: true }),
    previous: t.expose('previous', { type: PeriodRatesType, nullable: true }),
    delta: t.expose('delta', { type: RateDeltaType }),
  }),
});

builder.objectField(ProjectType, 'periodComparison', (t) =>
  t.field({
    type: [LocaleComparisonType],
    description: 'Two date ranges side by side per locale (each pooled on its own), with deltas.',
    authScopes: { scope: 'ai_visibility:read' },
    complexity: bounded(MAX_ROWS.locales),
    extensions: GRAPH_ONLY,
    args: {
      ...periodComparisonArgs(t.arg),
      model: t.arg({ type: AiModelEnum, required: false }),
    },
    resolve: async (project, args, ctx) => {
      const filterOf = (range: DateRange): RunFilter => ({ range, model: args.model ?? null, locale: null });
      // Totals only: the rows read are the default page's, so the same metrics asked alongside share the read.
      const rows = METRICS_ROWS_LIMIT.default;
      const totalsOf = (from: string, to: string) =>
        ctx.loaders.metrics.load({ project, filter: filterOf(metricsRange(from, to, ctx.now, SCAN_RANGE)), rows });
      const [current, previous] = await Promise.all([
        totalsOf(args.currentFrom, args.currentTo),
        totalsOf(args.previousFrom, args.previousTo),
      ]);
      return compareLocales(current.totals, previous.totals);
    },
  }),
);

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
