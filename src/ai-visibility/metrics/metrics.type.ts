// A project's metrics on the graph: rows per (date, model, locale) and pooled totals per locale, with
// the counter and rate fields every counted type shares.
import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { AiModelEnum } from '../../graphql/enums.js';
import { firstPageOf, ListMeta, type ListMetaShape } from '../../graphql/envelope.js';
import { DateRangeType } from '../../reports/report-data.type.js';
import type { DateRange } from '../../dates/civil-date.js';
import { withinBounds } from '../../errors/index.js';
import { boundedIntArg } from '../../graphql/bounded-int.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { bounded } from '../../graphql/cost.js';
import { projectRead } from '../projects/project-read.type.js';
import { METRICS_ROWS_LIMIT, runFilterOf, SCAN_RANGE, type RunFilterArgs } from '../common/read-filters.js';
import { MAX_ROWS } from '../common/read-rows.js';
import type { RunFilter } from '../common/run-filter.js';
import { runFilterArgs } from '../common/run-filter-args.type.js';
import type { LocaleTotals, MetricsRow, ModelTotals } from './metrics.js';
import type { MetricsProject } from './project-metrics.js';
import type { CompetitorMetrics, ScanCounters, ScanRates } from './pooled-rates.js';

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

const metricsArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  ...runFilterArgs(arg, SCAN_RANGE),
  limit: boundedIntArg(
    arg,
    METRICS_ROWS_LIMIT,
    'Rows, most recent first (meta.total counts them all; totals cover every row)',
  ),
});

/** A project's metrics; projects asked together with the same arguments share three statements. */
async function projectMetrics(project: MetricsProject, filter: RunFilter, rows: number, ctx: GraphQLContext) {
  const result = await ctx.loaders.metrics.load({ project, filter, rows });
  const page = firstPageOf(result.rows, result.total);
  return {
    data: { projectId: project.id, range: filter.range, rows: page.data, totals: result.totals },
    meta: page.meta,
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
