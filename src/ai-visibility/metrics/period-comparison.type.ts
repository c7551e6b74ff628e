// Two periods of a project side by side per locale on the graph (period-comparison.ts pools them).
import { builder } from '../../graphql/builder.js';
import { AiModelEnum } from '../../graphql/enums.js';
import { bounded } from '../../graphql/cost.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { CURRENT, PREVIOUS, periodComparisonArgs } from '../../graphql/period-args.js';
import { checkedRange } from '../../dates/date-range.js';
import type { DateRange } from '../../dates/civil-date.js';
import { ProjectType } from '../projects/project.type.js';
import { METRICS_ROWS_LIMIT, SCAN_RANGE } from '../common/read-filters.js';
import { MAX_ROWS } from '../common/read-rows.js';
import type { RunFilter } from '../common/run-filter.js';
import { compareLocales, RATE_FIELDS, type LocaleComparison, type PeriodRates } from './period-comparison.js';

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
      "Current minus previous, in the rates' own units (0..1 for visibility and share of voice); " +
      'null when either side has no data.',
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
      // Each period is checked before either is read, and a refusal names its own arguments.
      const currentRange = checkedRange({ from: args.currentFrom, to: args.currentTo }, SCAN_RANGE.maxDays, CURRENT);
      const previousRange = checkedRange(
        { from: args.previousFrom, to: args.previousTo },
        SCAN_RANGE.maxDays,
        PREVIOUS,
      );
      const filterOf = (range: DateRange): RunFilter => ({ range, model: args.model ?? null, locale: null });
      // Totals only: the rows read are the default page's, so the same metrics asked alongside share the read.
      const rows = METRICS_ROWS_LIMIT.default;
      const totalsOf = (range: DateRange) => ctx.loaders.metrics.load({ project, filter: filterOf(range), rows });
      const [current, previous] = await Promise.all([totalsOf(currentRange), totalsOf(previousRange)]);
      return compareLocales(current.totals, previous.totals);
    },
  }),
);
