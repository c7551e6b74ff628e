// The metrics read of several projects over one range: the most recent rows of each (capped per
// project) and the pooled totals of every row of the range, in one statement when the rows are all
// of the range and three when the cap cuts them.
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { groupByParent } from '../../db/per-parent.js';
import { daysBetweenInclusive } from '../../dates/civil-date.js';
import { runFilterValues, type RunFilter } from '../common/run-filter.js';
import {
  COMPETITOR_TOTALS,
  localeTotalsOf,
  METRICS_ROWS,
  metricsRowOf,
  TOTALS,
  type LocaleTotals,
  type MetricsResult,
  type MetricsRow,
  type ScanParams,
} from './metrics.js';
import { groupedTotalsOf } from './row-totals.js';

/** What the read needs of a project: its id, and its models and locales to guess whether the cap will cut its rows. */
export interface MetricsProject {
  id: string;
  models: readonly string[];
  locales: readonly string[];
}

type Totals = { totals: LocaleTotals[]; total: number };

// At most one scan per (date, model, locale): a project with more possible scans than the cap will
// likely be cut, and reads its totals beside its rows rather than after them (a round trip less).
const mayReachCap = (project: MetricsProject, filter: RunFilter, cap: number) =>
  daysBetweenInclusive(filter.range) *
    (filter.model ? 1 : project.models.length) *
    (filter.locale ? 1 : project.locales.length) >=
  cap;

/**
 * Metrics of several projects over one range. A project with fewer rows than the cap has them
 * all, and its totals are those rows added up (groupedTotalsOf). The others read their pooled
 * totals and their competitors' (from scans that carry competitor counters) in SQL, two statements
 * whatever their number: beside the rows when the cap was expected to cut them (mayReachCap), after
 * the rows for a project that reached the cap unexpectedly.
 */
export async function queryProjectMetrics(
  scope: WorkspaceScope,
  projects: readonly MetricsProject[],
  filter: RunFilter,
  cap: number,
): Promise<MetricsResult[]> {
  const projectIds = projects.map((project) => project.id);
  const values = { parentIds: projectIds, ...runFilterValues(filter) };
  const expected = projects.filter((project) => mayReachCap(project, filter, cap)).map((project) => project.id);
  const [stored, expectedTotals] = await Promise.all([
    scope.rows(METRICS_ROWS, { ...values, cap }),
    queryTotals(scope, { ...values, parentIds: expected }),
  ]);
  const rowsByProject = groupByParent(projectIds, stored).map((rows) => rows.map(metricsRowOf));
  const late = projectIds.filter((id, index) => rowsByProject[index]!.length >= cap && !expected.includes(id));
  const lateTotals = await queryTotals(scope, { ...values, parentIds: late });
  return rowsByProject.map((rows, index) => ({
    rows,
    ...(totalsIn(expected, expectedTotals, projectIds[index]!) ??
      totalsIn(late, lateTotals, projectIds[index]!) ??
      totalsOfRows(rows)),
  }));
}

const totalsIn = (ids: readonly string[], totals: readonly Totals[], id: string) => totals[ids.indexOf(id)];

function totalsOfRows(rows: readonly MetricsRow[]): Totals {
  const { modelRows, competitorRows } = groupedTotalsOf(rows);
  return localeTotalsOf(modelRows, competitorRows);
}

/** The pooled totals of projects in SQL, over every scan of the range: per project, in the order of parentIds. */
async function queryTotals(scope: WorkspaceScope, values: ScanParams): Promise<Totals[]> {
  if (values.parentIds.length === 0) return [];
  const [totalsRows, competitorRows] = await Promise.all([
    scope.rows(TOTALS, values),
    scope.rows(COMPETITOR_TOTALS, values),
  ]);
  const competitorsByProject = groupByParent(values.parentIds, competitorRows);
  return groupByParent(values.parentIds, totalsRows).map((projectTotals, index) =>
    localeTotalsOf(projectTotals, competitorsByProject[index]!),
  );
}
