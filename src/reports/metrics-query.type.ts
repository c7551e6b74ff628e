// A client's data asked directly (no report needed): metrics by one dimension, and the
// dimension values that moved most between two periods. The report engine answers both.
import type { ArgBuilder } from '@pothos/core';
import { boundedIntArg, boundedListCost } from '../graphql/bounded-int.js';
import { builder } from '../graphql/builder.js';
import { ComparePresetEnum, DatePresetEnum, MetricEnum, ProviderEnum } from '../graphql/enums.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import type { GraphQLContext } from '../graphql/context.js';
import { intBounds, withinBounds, type IntBounds } from '../errors/index.js';
import { today } from '../dates/date-range.js';
import { ClientType } from '../clients/client.type.js';
import { resolveComparePreset, resolveDatePreset, type ComparePreset, type DatePreset } from './date-presets.js';
import { computeReportData } from './engine.js';
import { questionDefinition, topMovers, type Mover } from './metrics-query.js';
import { TableType } from './report-data.type.js';

/** Rows of a metrics table, and movers of the 100 largest rows. */
const TABLE_ROWS = intBounds(1, 100, 20);
const MOVERS = intBounds(1, 100, 10);

const questionArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>, limit: IntBounds) => ({
  provider: arg({ type: ProviderEnum, required: true }),
  dimension: arg.string({
    required: true,
    description: 'A dimension of the provider (describe_metrics lists them), e.g. campaign or country.',
  }),
  datePreset: arg({ type: DatePresetEnum, required: false, description: 'Default: last_30_days.' }),
  comparePreset: arg({ type: ComparePresetEnum, required: false, description: 'Default: previous_period.' }),
  limit: boundedIntArg(arg, limit, 'Rows'),
});

interface Question {
  provider: string;
  dimension: string;
  datePreset?: DatePreset | null | undefined;
  comparePreset?: ComparePreset | null | undefined;
  limit?: number | null | undefined;
}

/** The one-table report of a question about a client, computed now (in the workspace's time zone). */
async function answerTable(
  clientId: string,
  metrics: string[],
  question: Question,
  ctx: GraphQLContext,
  limit: number,
) {
  const datePreset = question.datePreset ?? 'last_30_days';
  const comparePreset = question.comparePreset ?? 'previous_period';
  const definition = questionDefinition({
    provider: question.provider,
    metrics,
    dimension: question.dimension,
    limit,
    datePreset,
    comparePreset,
    timezone: ctx.principal.timezone,
  });
  const range = resolveDatePreset(datePreset, today(ctx.principal.timezone, ctx.now));
  const compareRange = resolveComparePreset(comparePreset, range);
  const [data] = await computeReportData(ctx.workspace, [{ clientId, definition, range, compareRange }]);
  return data!.tables[0]!;
}

builder.objectField(ClientType, 'metricsTable', (t) =>
  t.field({
    type: TableType,
    description:
      "This client's metrics by one dimension for a period, with the comparison period: " +
      "what a report's table widget would show.",
    authScopes: { scope: 'reports:read' },
    extensions: GRAPH_ONLY,
    args: { metrics: t.arg({ type: [MetricEnum], required: true }), ...questionArgs(t.arg, TABLE_ROWS) },
    complexity: (args) => boundedListCost(args.limit, TABLE_ROWS),
    resolve: (client, args, ctx) =>
      answerTable(client.id, args.metrics, args, ctx, withinBounds(args.limit, TABLE_ROWS)),
  }),
);

const MoverType = builder.objectRef<Mover>('Mover').implement({
  description: 'A dimension value whose metric moved between the two periods.',
  fields: (t) => ({
    dimensionValue: t.exposeString('dimensionValue'),
    value: t.exposeFloat('value', { nullable: true }),
    previousValue: t.exposeFloat('previousValue', { nullable: true }),
    delta: t.exposeFloat('delta', { nullable: true, description: 'value − previousValue.' }),
    change: t.exposeFloat('change', {
      nullable: true,
      description: 'Relative change; null when the previous value is 0.',
    }),
  }),
});

builder.objectField(ClientType, 'topMovers', (t) =>
  t.field({
    type: [MoverType],
    description:
      'The dimension values whose metric changed most (by absolute difference) between the period and the ' +
      'comparison period, among the 100 largest.',
    authScopes: { scope: 'reports:read' },
    extensions: GRAPH_ONLY,
    args: { metric: t.arg({ type: MetricEnum, required: true }), ...questionArgs(t.arg, MOVERS) },
    complexity: (args) => boundedListCost(args.limit, MOVERS),
    resolve: async (client, args, ctx) =>
      topMovers((await answerTable(client.id, [args.metric], args, ctx, 100)).rows, withinBounds(args.limit, MOVERS)),
  }),
);
