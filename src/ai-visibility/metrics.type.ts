import type { ArgBuilder } from '@pothos/core';
import { builder } from '../graphql/builder.js';
import { AiModelEnum } from '../graphql/enums.js';
import { ListMeta, type ListMetaShape } from '../graphql/envelope.js';
import { DateRangeType } from '../reports/report-data.type.js';
import type { DateRange } from '../dates/civil-date.js';
import type { GraphQLContext } from '../graphql/context.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { periodComparisonArgs } from '../graphql/period-args.js';
import { ProjectType } from './project.type.js';
import { projectRead } from './project-read.type.js';
import { type LocaleTotals, type MetricsRow, type ModelTotals } from './metrics.js';
import type { CompetitorMetrics, ScanCounters, ScanRates } from './pooled-rates.js';
import { metricsRange, rangeRuleText, RUN_RANGE, runFilterOf, SCAN_RANGE, type RangeRule } from './read-filters.js';
import { compareLocales, RATE_FIELDS, type LocaleComparison, type PeriodRates } from './period-comparison.js';
import { queryTrend, TREND_GRANULARITIES, type TrendPoint } from './trend.js';
import { bounded } from '../graphql/cost.js';
import { MAX_ROWS, trendPoints } from './read-rows.js';

type CountersAndRates = ScanCounters & ScanRates;

export type CountersFieldBuilder = PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, CountersAndRates>;

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
  sentiment: t.exposeFloat('sentiment', { nullable: true, description: '(positive - negative) / (positive + neutral + negative), in -1..1.' }),
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
    totalMentionCount: t.exposeInt('totalMentionCount', { description: 'Mentions of all tracked brands in those scans.' }),
    visibility: t.exposeFloat('visibility', { nullable: true, description: 'visibilityCount / totalRuns.' }),
    shareOfVoice: t.exposeFloat('shareOfVoice', { nullable: true, description: 'mentionCount / totalMentionCount.' }),
    averagePosition: t.exposeFloat('averagePosition', { nullable: true, description: 'positionSum / positionedCount.' }),
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
  fields: (t) => ({ model: t.expose('model', { type: AiModelEnum }), ...countersAndRates(t as unknown as CountersFieldBuilder) }),
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

const MetricsEnvelope = builder.objectRef<{ data: MetricsShape; meta: ListMetaShape }>('AiVisibilityMetricsResult').implement({
  fields: (t) => ({
    data: t.expose('data', { type: MetricsType }),
    meta: t.expose('meta', { type: ListMeta, description: 'total and truncated describe rows.' }),
  }),
});

const metricsArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>, rule: RangeRule) => ({
  model: arg({ type: AiModelEnum, required: false, description: 'Only this model.' }),
  dateFrom: arg({
    type: 'Date',
    required: false,
    description: `First day (inclusive); default: ${rule.defaultDays - 1} days before dateTo. ${rangeRuleText(rule)}`,
  }),
  dateTo: arg({ type: 'Date', required: false, description: 'Last day (inclusive); default: today (UTC).' }),
});

/** The filter of prompt, answer and source reads: the metrics arguments and a locale. */
export const runFilterArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>, rule: RangeRule = RUN_RANGE) => ({
  ...metricsArgs(arg, rule),
  locale: arg.string({ required: false, description: 'Only this locale (BCP 47, e.g. en-US).' }),
});

/** A project's metrics; projects asked together with the same arguments share two statements. */
async function projectMetrics(project: { id: string }, range: DateRange, model: string | null | undefined, ctx: GraphQLContext) {
  const result = await ctx.loaders.metrics.load({ project, range, model: model ?? null });
  return {
    data: { projectId: project.id, range, rows: result.rows, totals: result.totals },
    meta: { total: result.total, truncated: result.total > result.rows.length },
  };
}

projectRead({
  root: 'aiVisibilityMetrics',
  field: 'metrics',
  description: 'Snapshot metrics of a project: rows per (date, model, locale) and pooled totals per locale.',
  what: 'snapshot metrics',
  type: MetricsEnvelope,
  args: (arg) => metricsArgs(arg, SCAN_RANGE),
  read: (args: { dateFrom?: string | null; dateTo?: string | null; model?: string | null }, ctx) => {
    const range = metricsRange(args.dateFrom, args.dateTo, ctx.now, SCAN_RANGE);
    return (project) => projectMetrics(project, range, args.model, ctx);
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

const RateDeltaType = builder.objectRef<Record<(typeof RATE_FIELDS)[number], number | null>>('AiVisibilityRateDelta').implement({
  description: 'Current minus previous, in the rates\' own units (0..1 for visibility and share of voice); null when either side has no data.',
  fields: (t) => Object.fromEntries(RATE_FIELDS.map((field) => [field, t.exposeFloat(field, { nullable: true })])) as never,
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
      const model = args.model ?? null;
      const [current, previous] = await Promise.all([
        ctx.loaders.metrics.load({ project, range: metricsRange(args.currentFrom, args.currentTo, ctx.now, SCAN_RANGE), model }),
        ctx.loaders.metrics.load({ project, range: metricsRange(args.previousFrom, args.previousTo, ctx.now, SCAN_RANGE), model }),
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
    args: { granularity: t.arg({ type: TrendGranularityEnum, required: false, description: 'day (default), week or month.' }), ...runFilterArgs(t.arg) },
    complexity: (args, ctx) => bounded(trendPoints(args, ctx.now)),
    resolve: (project, args, ctx) => queryTrend(ctx.workspace, project.id, runFilterOf(args, ctx.now), args.granularity ?? 'day'),
  }),
);
