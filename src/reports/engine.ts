// The live report-data engine. Aggregation runs in SQL (grouped sums); Node only turns
// summed base parts into metric values. Widgets share parts: one "series" part per provider
// and range (the total plus every bucket grain its charts need) and one "table" part per
// provider, dimension and range; all parts of a report go to PostgreSQL as one statement.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { ProviderId } from './catalog.js';
import { queryReportSums, type Part, type SeriesSums, type TableSums } from './report-sums.js';
import { daysBetweenInclusive, type DateRange } from '../dates/civil-date.js';
import type { Granularity } from './date-presets.js';
import type { ReportDefinition } from './definition.js';
import { assembleChart, assembleKpis, assembleTable, type Coverage, type ReportData } from './widgets.js';

export { relativeChange } from './widgets.js';
export type { BucketSpan, Chart, ChartPoint, Coverage, Kpi, ReportData, Table, TableRow } from './widgets.js';

export interface ReportDataInput {
  clientId: string | null;
  definition: ReportDefinition;
  range: DateRange;
  compareRange: DateRange | null;
}

interface ReportPlan {
  parts: Part[];
  partIndex: Map<string, number>;
  ranges: DateRange[];
}

/** The shared parts of a report: per provider the grains its charts need, per provider the table dimensions. */
function planReport({ definition, range, compareRange }: ReportDataInput): ReportPlan {
  const ranges = compareRange ? [range, compareRange] : [range];
  const grainsByProvider = new Map<ProviderId, Set<Granularity>>();
  const dimensionsByProvider = new Map<ProviderId, Set<string>>();
  for (const widget of definition.widgets) {
    const provider = widget.provider as ProviderId;
    if (widget.type === 'table') {
      dimensionsByProvider.set(provider, (dimensionsByProvider.get(provider) ?? new Set()).add(widget.dimension!));
    } else {
      const grains = grainsByProvider.get(provider) ?? new Set();
      if (widget.type !== 'kpi') grains.add(widget.granularity ?? 'day');
      grainsByProvider.set(provider, grains);
    }
  }
  const parts: Part[] = [];
  const partIndex = new Map<string, number>();
  ranges.forEach((_, rangeIndex) => {
    for (const [provider, grains] of grainsByProvider) {
      partIndex.set(
        `${provider}|${rangeIndex}`,
        parts.push({ kind: 'series', provider, rangeIndex, grains: [...grains].sort() }) - 1,
      );
    }
    for (const [provider, dimensions] of dimensionsByProvider) {
      for (const dimension of dimensions)
        partIndex.set(
          `${provider}|${dimension}|${rangeIndex}`,
          parts.push({ kind: 'table', provider, rangeIndex, dimension }) - 1,
        );
    }
  });
  return { parts, partIndex, ranges };
}

/**
 * The coverage of one of the report's ranges: the fewest days with data among its parts over
 * that range, so that a report reading two providers is called partial when either one is.
 */
function coverageOf(plan: ReportPlan, sums: readonly (SeriesSums | TableSums)[], rangeIndex: number): Coverage {
  const counts = plan.parts.flatMap((part, index) =>
    part.rangeIndex === rangeIndex ? [sums[index]?.daysWithData ?? 0] : [],
  );
  return {
    days: daysBetweenInclusive(plan.ranges[rangeIndex]!),
    daysWithData: counts.length ? Math.min(...counts) : 0,
  };
}

function assembleReport(
  { definition, range, compareRange }: ReportDataInput,
  plan: ReportPlan,
  sums: readonly (SeriesSums | TableSums)[],
): ReportData {
  const part = <T>(key: string) => sums[plan.partIndex.get(key)!] as T;
  const data: ReportData = {
    coverage: coverageOf(plan, sums, 0),
    compareCoverage: compareRange ? coverageOf(plan, sums, 1) : null,
    kpis: [],
    charts: [],
    tables: [],
  };
  for (const widget of definition.widgets) {
    if (widget.type === 'table') {
      const key = `${widget.provider}|${widget.dimension}`;
      data.tables.push(
        assembleTable(widget, part<TableSums>(`${key}|0`), compareRange ? part<TableSums>(`${key}|1`) : null),
      );
      continue;
    }
    const current = part<SeriesSums>(`${widget.provider}|0`);
    const previous = compareRange ? part<SeriesSums>(`${widget.provider}|1`) : null;
    if (widget.type === 'kpi') data.kpis.push(...assembleKpis(widget, current, previous));
    else data.charts.push(assembleChart(widget, range, compareRange, current, previous));
  }
  return data;
}

/** The live data of several reports, with one aggregation statement for all of them. */
export async function computeReportData(
  scope: WorkspaceScope,
  inputs: readonly ReportDataInput[],
): Promise<ReportData[]> {
  const plans = inputs.map(planReport);
  // A report without a client has no data source: its parts stay empty.
  const requests = inputs.map((input, index) => ({
    clientId: input.clientId ?? '',
    parts: input.clientId ? plans[index]!.parts : [],
    ranges: plans[index]!.ranges,
  }));
  const sums = await queryReportSums(scope, requests);
  return inputs.map((input, index) => assembleReport(input, plans[index]!, sums[index]!));
}
