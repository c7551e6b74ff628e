import type { ArgBuilder } from '@pothos/core';
import { builder } from '../graphql/builder.js';
import { ComparePresetEnum, DatePresetEnum } from '../graphql/enums.js';
import { KPI_ROWS, KpiType, ReportDataType, type ReportDataShape } from './report-data-shape.type.js';
import { emptyMeta, itemEnvelope } from '../graphql/envelope.js';
import type { DateRange } from '../dates/civil-date.js';
import { checkedRange, today } from '../dates/date-range.js';
import {
  MAX_REPORT_DAYS,
  resolveComparePreset,
  resolveDatePreset,
  type ComparePreset,
  type DatePreset,
} from './date-presets.js';
import type { ReportRow } from './repository.js';
import { invalidParameter, notFound } from '../errors/index.js';
import type { GraphQLContext } from '../graphql/context.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { CURRENT, PREVIOUS, periodComparisonArgs } from '../graphql/period-args.js';
import { ReportSummaryType, ReportType } from './report.type.js';

export { DateRangeType, TableType } from './report-data-shape.type.js';

const ReportDataItem = itemEnvelope('ReportDataItem', ReportDataType, "A report's live data.");

/** A report's data for the given presets (default: its dateConfig), resolved in its time zone. */
async function reportData(
  report: ReportRow,
  datePreset: DatePreset | null | undefined,
  comparePreset: ComparePreset | null | undefined,
  ctx: GraphQLContext,
): Promise<ReportDataShape> {
  const { dateConfig } = report.definition;
  const range = resolveDatePreset(datePreset ?? dateConfig.datePreset, today(dateConfig.timezone, ctx.now));
  const compareRange = resolveComparePreset(comparePreset ?? dateConfig.comparePreset, range);
  return reportDataOver(report, range, compareRange, ctx);
}

builder.queryField('reportData', (t) =>
  t.field({
    type: ReportDataItem,
    description: "A report's live assembled data: KPIs, charts and tables. Presets default to the report's dateConfig.",
    authScopes: { scope: 'reports:read' },
    args: {
      id: t.arg({ type: 'ReportId', required: true }),
      datePreset: t.arg({
        type: DatePresetEnum,
        required: false,
        description: "Range to report on; default: the report's dateConfig.datePreset.",
      }),
      comparePreset: t.arg({
        type: ComparePresetEnum,
        required: false,
        description: "Range to compare with; default: the report's dateConfig.comparePreset.",
      }),
    },
    resolve: async (_root, args, ctx) => ({
      data: await reportData(await ctx.repositories.reports.find(args.id), args.datePreset, args.comparePreset, ctx),
      meta: emptyMeta(),
    }),
  }),
);

for (const variant of [ReportSummaryType, ReportType]) {
  builder.objectField(variant, 'data', (t) =>
    t.field({
      type: ReportDataType,
      description: "This report's live data; reports asked together share one aggregation statement.",
      authScopes: { scope: 'reports:read' },
      extensions: GRAPH_ONLY,
      args: {
        datePreset: t.arg({
          type: DatePresetEnum,
          required: false,
          description: "Default: the report's dateConfig.datePreset.",
        }),
        comparePreset: t.arg({
          type: ComparePresetEnum,
          required: false,
          description: "Default: the report's dateConfig.comparePreset.",
        }),
      },
      // Summaries carry no definition; the full row comes from the request's report loader
      // (one statement for every report of the page, none when node() loaded it already).
      resolve: async (report, args, ctx) => {
        const full = await ctx.loaders.report.load(report.id);
        if (!full) throw notFound('report');
        return reportData(full, args.datePreset, args.comparePreset, ctx);
      },
    }),
  );
}

/** The data of a report over two explicit ranges (a comparison the presets cannot name). */
async function reportDataOver(
  report: ReportRow,
  range: DateRange,
  compareRange: DateRange | null,
  ctx: GraphQLContext,
): Promise<ReportDataShape> {
  const { dateConfig } = report.definition;
  const data = await ctx.loaders.reportData.load({ report, range, compareRange });
  return {
    reportId: report.id,
    range,
    compareRange,
    timezone: dateConfig.timezone,
    currency: report.currency,
    ...data,
  };
}

const presetArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  datePreset: arg({
    type: DatePresetEnum,
    required: false,
    description: "Default: the report's dateConfig.datePreset.",
  }),
  comparePreset: arg({
    type: ComparePresetEnum,
    required: false,
    description: "Default: the report's dateConfig.comparePreset.",
  }),
});

builder.objectField(ReportType, 'widgetData', (t) =>
  t.field({
    type: ReportDataType,
    description: "One widget's part of this report's data (its KPIs, chart or table).",
    authScopes: { scope: 'reports:read' },
    extensions: GRAPH_ONLY,
    args: { widgetId: t.arg.string({ required: true }), ...presetArgs(t.arg) },
    resolve: async (report, args, ctx) => {
      const widgets = report.definition.widgets;
      if (!widgets.some((widget) => widget.id === args.widgetId))
        throw invalidParameter(
          'widgetId',
          `No widget ${args.widgetId.slice(0, 64)} in this report; ` +
            `widgets: ${widgets.map((widget) => widget.id).join(', ')}.`,
        );
      const data = await reportData(report, args.datePreset, args.comparePreset, ctx);
      const mine = <T extends { widgetId: string }>(items: T[]) =>
        items.filter((item) => item.widgetId === args.widgetId);
      return { ...data, kpis: mine(data.kpis), charts: mine(data.charts), tables: mine(data.tables) };
    },
  }),
);

builder.objectField(ReportType, 'kpiSummary', (t) =>
  t.field({
    type: [KpiType],
    description: "This report's KPI widgets only: each metric's value, previous value and change.",
    authScopes: { scope: 'reports:read' },
    extensions: GRAPH_ONLY,
    args: presetArgs(t.arg),
    complexity: KPI_ROWS,
    resolve: async (report, args, ctx) => (await reportData(report, args.datePreset, args.comparePreset, ctx)).kpis,
  }),
);

builder.objectField(ReportType, 'periodComparison', (t) =>
  t.field({
    type: ReportDataType,
    description:
      'This report over a range you choose, compared with another range you choose ' +
      '(e.g. two campaigns, or this month vs the same month last year).',
    authScopes: { scope: 'reports:read' },
    extensions: GRAPH_ONLY,
    args: {
      ...periodComparisonArgs(t.arg),
    },
    resolve: (report, args, ctx) =>
      reportDataOver(
        report,
        checkedRange({ from: args.currentFrom, to: args.currentTo }, MAX_REPORT_DAYS, CURRENT),
        checkedRange({ from: args.previousFrom, to: args.previousTo }, MAX_REPORT_DAYS, PREVIOUS),
        ctx,
      ),
  }),
);
