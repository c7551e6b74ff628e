// The GraphQL types of a report's assembled data (ranges with coverage, KPIs, tables), which the
// report's fields (report-data.type.ts), the metrics query and the AI-visibility ranges return.
import { builder } from '../graphql/builder.js';
import { MetricEnum } from '../graphql/enums.js';
import { bounded } from '../graphql/cost.js';
import type { DateRange } from '../dates/civil-date.js';
import type { Coverage, Kpi, ReportData, Table, TableRow } from './engine.js';
import { ChartType } from './chart.type.js';
import { DEFINITION_LIMITS } from './definition.js';

/** KPIs: one per metric of each KPI widget. */
export const KPI_ROWS = bounded(DEFINITION_LIMITS.widgets * DEFINITION_LIMITS.metricsPerWidget);

export const DateRangeType = builder.objectRef<DateRange>('DateRange').implement({
  description: 'An inclusive range of calendar dates.',
  fields: (t) => ({ from: t.expose('from', { type: 'Date' }), to: t.expose('to', { type: 'Date' }) }),
});

export const KpiType = builder.objectRef<Kpi>('Kpi').implement({
  fields: (t) => ({
    widgetId: t.exposeString('widgetId'),
    metric: t.expose('metric', { type: MetricEnum }),
    value: t.exposeFloat('value', { nullable: true }),
    previousValue: t.exposeFloat('previousValue', {
      nullable: true,
      description: 'Null when the compared period has no data for this metric (not 0).',
    }),
    change: t.exposeFloat('change', {
      nullable: true,
      description:
        'Relative change against previousValue; null when that is 0 or null, or the range has no day of data.',
    }),
  }),
});

type CoveredRange = DateRange & Coverage;

const ReportRangeType = builder.objectRef<CoveredRange>('ReportRange').implement({
  description:
    "A report's range (inclusive) with how much of it has data: " +
    "the days with facts of the report's least covered source.",
  fields: (t) => ({
    from: t.expose('from', { type: 'Date' }),
    to: t.expose('to', { type: 'Date' }),
    days: t.exposeInt('days', { description: 'Days in the range.' }),
    daysWithData: t.exposeInt('daysWithData', {
      description: 'Days with facts; fewer than days: sums and changes cover part of the range.',
    }),
  }),
});

const TableRowType = builder.objectRef<TableRow>('TableRow').implement({
  fields: (t) => ({
    dimensionValue: t.exposeString('dimensionValue'),
    values: t.exposeFloatList('values', { nullable: { list: false, items: true } }),
    previousValues: t.exposeFloatList('previousValues', {
      nullable: { list: false, items: true },
      description: 'Per column; null where the compared period has no data for that metric (not 0).',
    }),
  }),
});

const TableTotalsType = builder.objectRef<Table['totals']>('TableTotals').implement({
  fields: (t) => ({
    values: t.exposeFloatList('values', { nullable: { list: false, items: true } }),
    previousValues: t.exposeFloatList('previousValues', {
      nullable: { list: false, items: true },
      description: 'Per column; null where the compared period has no data for that metric (not 0).',
    }),
  }),
});

export const TableType = builder.objectRef<Table>('Table').implement({
  fields: (t) => ({
    widgetId: t.exposeString('widgetId'),
    dimension: t.exposeString('dimension'),
    columns: t.expose('columns', { type: [MetricEnum], description: 'The metrics, in the order of values.' }),
    rows: t.expose('rows', { type: [TableRowType], complexity: bounded(DEFINITION_LIMITS.tableRows) }),
    totals: t.expose('totals', { type: TableTotalsType }),
  }),
});

export interface ReportDataShape extends ReportData {
  reportId: string;
  range: DateRange;
  compareRange: DateRange | null;
  timezone: string;
  /** The report's client's (ISO 4217), null until set. */
  currency: string | null;
}

export const ReportDataType = builder.objectRef<ReportDataShape>('ReportData').implement({
  description: 'The live assembled content of a report.',
  fields: (t) => ({
    reportId: t.exposeString('reportId'),
    range: t.field({ type: ReportRangeType, resolve: (data): CoveredRange => ({ ...data.range, ...data.coverage }) }),
    compareRange: t.field({
      type: ReportRangeType,
      nullable: true,
      description: 'Null without a comparison. A change against a range with few days of data is not like for like.',
      resolve: (data): CoveredRange | null =>
        data.compareRange && data.compareCoverage ? { ...data.compareRange, ...data.compareCoverage } : null,
    }),
    timezone: t.exposeString('timezone'),
    currency: t.exposeString('currency', {
      nullable: true,
      description: "Money's ISO 4217 code (the client's); null: not set.",
    }),
    kpis: t.expose('kpis', { type: [KpiType], complexity: KPI_ROWS }),
    charts: t.expose('charts', { type: [ChartType], complexity: bounded(DEFINITION_LIMITS.widgets) }),
    tables: t.expose('tables', { type: [TableType], complexity: bounded(DEFINITION_LIMITS.widgets) }),
  }),
});
