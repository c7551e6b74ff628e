// Per-request DataLoaders: a list of N items asks the database once per relation, not N
// times. Loaders whose keys carry arguments (a date range, a page) batch the keys that share
// those arguments, so a page of 50 clients with the same preset still costs one statement.
import DataLoader from 'dataloader';
import type { ClientRow } from '../clients/index.js';
import type { ListEnvelope } from '../db/per-parent.js';
import type { DateRange } from '../dates/civil-date.js';
import type { ReportRow, ReportSummaryRow } from '../reports/index.js';
import { computeReportData, type ReportData } from '../reports/index.js';
import {
  queryProjectMetrics,
  searchQueriesOfPrompts,
  type MetricsResult,
  type SearchQueryRow,
} from '../ai-visibility/index.js';
import { toPage, type Page, type PageArgs } from '../db/paging.js';
import type {
  AnswerRow,
  LocaleTotals,
  MetricsProject,
  ProjectRow,
  PromptRow,
  RunFilter,
  ScanFilter,
  ScanRow,
} from '../ai-visibility/index.js';
import type { SignalFilter, SignalRow } from '../signals/index.js';
import type { SignalRule } from '../signals/index.js';
import type { Repositories } from './repositories.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { cachedBatch, dataVersionOf, type DataCache } from '../db/data-cache.js';
import { lazyRecord } from './lazily.js';

export interface ReportDataKey {
  report: ReportRow;
  range: DateRange;
  compareRange: DateRange | null;
}

export interface MetricsKey {
  /** A project row (it carries its data version). */
  project: MetricsProject;
  filter: RunFilter;
  /** Rows asked for (most recent first); the instance's METRICS_ROW_CAP applies on top. */
  rows: number;
}

export interface PageKey<F> {
  parentId: string;
  args: PageArgs & F;
}

/** A DataLoader that batches keys sharing `groupOf(key)` and loads each group with one call. */
function groupedLoader<K, V>(
  groupOf: (key: K) => string,
  cacheKeyOf: (key: K) => string,
  loadGroup: (keys: K[]) => Promise<V[]>,
) {
  return new DataLoader<K, V, string>(
    async (keys) => {
      const groups = new Map<string, number[]>();
      keys.forEach((key, index) => {
        const group = groupOf(key);
        groups.set(group, [...(groups.get(group) ?? []), index]);
      });
      const results = new Array<V>(keys.length);
      await Promise.all(
        [...groups.values()].map(async (indexes) => {
          const values = await loadGroup(indexes.map((index) => keys[index]!));
          indexes.forEach((index, position) => (results[index] = values[position]!));
        }),
      );
      return results;
    },
    { cacheKeyFn: cacheKeyOf },
  );
}

/** Everything a report's data depends on: its definition (updatedAt), its client's facts (data version), the ranges. */
const reportDataCacheKey = ({ report, range, compareRange }: ReportDataKey) =>
  `report|${report.workspaceId}|${report.id}|${report.updatedAt.getTime()}|v${dataVersionOf(report)}` +
  `|${rangeKey(range)}|${rangeKey(compareRange)}`;

const rangeKey = (range: DateRange | null) => (range ? `${range.from}..${range.to}` : '-');
const metricsGroup = ({ filter, rows }: MetricsKey, cap: number) =>
  `${rangeKey(filter.range)}|${filter.model}|${filter.locale}|${Math.min(rows, cap)}`;
const pageGroup = (key: PageKey<object>) => JSON.stringify(key.args);
const pageCacheKey = (key: PageKey<object>) => `${key.parentId}|${JSON.stringify(key.args)}`;

/** What one request's loaders read through. */
interface LoaderEnv {
  repositories: Repositories;
  scope: WorkspaceScope;
  cache: DataCache;
  listCap: number;
  metricsCap: number;
}

const makeLoaders = lazyRecord<LoaderEnv>()({
  client: ({ repositories }) => new DataLoader<string, ClientRow | null>((ids) => repositories.clients.byIds(ids)),
  report: ({ repositories }) => new DataLoader<string, ReportRow | null>((ids) => repositories.reports.byIds(ids)),
  project: ({ repositories }) => new DataLoader<string, ProjectRow | null>((ids) => repositories.projects.byIds(ids)),
  scan: ({ repositories }) => new DataLoader<string, ScanRow | null>((ids) => repositories.scans.byIds(ids)),
  signal: ({ repositories }) => new DataLoader<string, SignalRow | null>((ids) => repositories.signals.byIds(ids)),
  signalRulesOfProject: ({ repositories }) =>
    new DataLoader<string, SignalRule[]>((ids) => repositories.signals.rulesOf(ids)),
  reportsOfClient: ({ repositories, listCap }) =>
    new DataLoader<string, ListEnvelope<ReportSummaryRow>>((ids) => repositories.reports.byClients(ids, listCap)),
  projectsOfClient: ({ repositories, listCap }) =>
    new DataLoader<string, ListEnvelope<ProjectRow>>((ids) => repositories.projects.byClients(ids, listCap)),
  reportData: ({ scope, cache }) =>
    new DataLoader<ReportDataKey, ReportData, string>(
      (keys) =>
        cachedBatch(cache, keys, reportDataCacheKey, (misses) =>
          computeReportData(
            scope,
            misses.map(({ report, range, compareRange }) => ({
              clientId: report.clientId,
              definition: report.definition,
              range,
              compareRange,
            })),
          ),
        ),
      { cacheKeyFn: (key) => `${key.report.id}|${rangeKey(key.range)}|${rangeKey(key.compareRange)}` },
    ),
  metrics: ({ scope, cache, metricsCap }) =>
    groupedLoader<MetricsKey, MetricsResult>(
      (key) => metricsGroup(key, metricsCap),
      (key) => `${key.project.id}|${metricsGroup(key, metricsCap)}`,
      (keys) =>
        cachedBatch(
          cache,
          keys,
          (key) =>
            `metrics|${scope.workspaceId}|${key.project.id}|v${dataVersionOf(key.project)}` +
            `|${metricsGroup(key, metricsCap)}`,
          (misses) =>
            queryProjectMetrics(
              scope,
              misses.map((key) => key.project),
              misses[0]!.filter,
              Math.min(misses[0]!.rows, metricsCap),
            ),
        ),
    ),
  prompt: ({ repositories }) => new DataLoader<string, PromptRow | null>((ids) => repositories.prompts.byIds(ids)),
  answer: ({ repositories }) => new DataLoader<string, AnswerRow | null>((ids) => repositories.answers.byIds(ids)),
  promptTotals: ({ repositories }) =>
    groupedLoader<{ parentId: string; filter: RunFilter }, LocaleTotals[]>(
      (key) => JSON.stringify(key.filter),
      (key) => `${key.parentId}|${JSON.stringify(key.filter)}`,
      (keys) =>
        repositories.prompts.totals(
          keys.map((key) => key.parentId),
          keys[0]!.filter,
        ),
    ),
  searchQueriesOfPrompt: ({ scope }) =>
    groupedLoader<{ parentId: string; projectId: string; filter: RunFilter; perLocale: number }, SearchQueryRow[]>(
      (key) => `${key.projectId}|${key.perLocale}|${JSON.stringify(key.filter)}`,
      (key) => `${key.parentId}|${key.perLocale}|${JSON.stringify(key.filter)}`,
      (keys) =>
        searchQueriesOfPrompts(
          scope,
          keys[0]!.projectId,
          keys.map((key) => key.parentId),
          keys[0]!.filter,
          keys[0]!.perLocale,
        ),
    ),
  runsOfPrompt: ({ repositories }) =>
    groupedLoader<PageKey<RunFilter>, Page<AnswerRow>>(pageGroup, pageCacheKey, async (keys) => {
      const { first, after, ...filter } = keys[0]!.args;
      const pages = await repositories.answers.pagesOfPrompts(
        keys.map((key) => key.parentId),
        filter,
        after && { date: after.sortValue, id: after.id },
        first + 1,
      );
      return pages.map((rows) => toPage(rows, first));
    }),
  scansOfProject: ({ repositories }) =>
    groupedLoader<PageKey<ScanFilter>, Page<ScanRow>>(pageGroup, pageCacheKey, (keys) =>
      repositories.scans.pages(
        keys.map((key) => key.parentId),
        keys[0]!.args,
      ),
    ),
  signalsOfProject: ({ repositories }) =>
    groupedLoader<PageKey<SignalFilter>, Page<SignalRow>>(pageGroup, pageCacheKey, (keys) =>
      repositories.signals.pages(
        keys.map((key) => key.parentId),
        keys[0]!.args,
      ),
    ),
});

export function createLoaders(
  repositories: Repositories,
  scope: WorkspaceScope,
  cache: DataCache,
  listCap: number,
  metricsCap: number,
) {
  return makeLoaders({ repositories, scope, cache, listCap, metricsCap });
}

export type Loaders = ReturnType<typeof createLoaders>;
