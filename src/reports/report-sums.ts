// The sums behind report data: every part of every asked report (a provider's series over a
// range with the bucket grains its charts need, or its table by one dimension) summed in SQL,
// all in one statement, bound to the workspace.
import { createHash } from 'node:crypto';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { LRUCache } from 'lru-cache';
import { tenantStatement, type TenantStatement, type WorkspaceBinding } from '../db/tenant-sql.js';
import type { DateRange } from '../dates/civil-date.js';
import { baseMetricsOf, METRIC_COLUMNS, METRIC_DECIMALS, type ProviderId } from './catalog.js';
import type { Granularity } from './date-presets.js';

/** Summed base metrics; a metric the range has no facts for is absent (SQL's sum over no rows is null). */
export type Sums = Record<string, number>;

/** One bucket's (a day's, week's or month's) sums, with how many of its days have facts. */
export interface BucketSums {
  sums: Sums;
  daysWithData: number;
}

/** Summed base metrics of one provider over one range: the total and per bucket per grain. */
export interface SeriesSums {
  total: Sums;
  /** Days of the range with any fact of the provider. */
  daysWithData: number;
  buckets: Record<Granularity, Map<string, BucketSums>>;
}

/** Summed base metrics per dimension value, plus the total over all values. */
export interface TableSums {
  byValue: Map<string, Sums>;
  total: Sums;
  /** Days of the range with any fact of the provider by this dimension. */
  daysWithData: number;
}

const GRAIN_SQL: Record<Granularity, string> = {
  day: 'date',
  week: "date_trunc('week', date)",
  month: "date_trunc('month', date)",
};

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
// Summed in whole millionths (a float8 → bigint cast rounds to the nearest): exact, so the same
// facts give the same total whatever order a plan reads them in, at about half numeric's cost (a
// float8 → numeric cast formats the number as text). The sum (numeric) is divided as a decimal and
// only then made a double: the nearest one to the exact total, however large. Only the part's
// provider's columns are summed (the others are null in its rows; UNION ALL needs them named).
// With the days that have facts (on the total row: how much of the range has data at all; on a
// bucket's row: how much of that week or month): a series reads the day totals, one row per date
// (the key), so it counts rows; a table's total spans its dimension's values, so it counts
// distinct dates (docs/decisions/report-sums-statement.md).
const SCALE = `${10 ** METRIC_DECIMALS}::float8`;
const sumColumns = (provider: ProviderId, daysWithData: string) =>
  [
    ...METRIC_COLUMNS.map((column) =>
      baseMetricsOf(provider).includes(column)
        ? `(sum((${column} * ${SCALE})::int8) / ${10 ** METRIC_DECIMALS})::float8 AS ${column}`
        : `NULL::float8 AS ${column}`,
    ),
    `${daysWithData}::int AS days_with_data`,
  ].join(', ');

export interface SeriesPart {
  kind: 'series';
  provider: ProviderId;
  rangeIndex: number;
  grains: Granularity[];
}

export interface TablePart {
  kind: 'table';
  provider: ProviderId;
  rangeIndex: number;
  dimension: string;
}

export type Part = SeriesPart | TablePart;

/** The parts of one report over its ranges, for one client. */
export interface SumsRequest {
  clientId: string;
  parts: readonly Part[];
  ranges: readonly DateRange[];
}

// A request's parameters by name: its client, and each range's bounds.
const clientOf = (request: number) => `client${request}`;
const boundOf = (request: number, range: number, end: 'from' | 'to') => `${end}${request}.${range}`;
type SumsParams = Record<string, string>;
/** A row of the statement: which request and part, the bucket or dimension value (null: the total), the sums. */
type SumsRow = Record<string, unknown> & { request: number; part: number; key: string | null; days_with_data: number };

/**
 * One SQL statement for every part of every requested report: a UNION ALL of grouped sums,
 * each part a GROUPING SETS aggregation over its index range (the total plus the buckets or
 * dimension values it needs). $1 is the workspace; each request's client is looked up under
 * it, so facts are only ever read for a client of the caller's workspace.
 */
export function reportSumsSql(
  requests: readonly Pick<SumsRequest, 'parts' | 'ranges'>[],
  workspace: WorkspaceBinding,
  param: (name: string) => string,
): string {
  const selects: string[] = [];
  requests.forEach((request, requestIndex) => {
    request.parts.forEach((part, partIndex) => {
      const from = param(boundOf(requestIndex, part.rangeIndex, 'from'));
      const to = param(boundOf(requestIndex, part.rangeIndex, 'to'));
      const client = `(SELECT id FROM clients WHERE ${workspace()} AND id = ${param(clientOf(requestIndex))})`;
      const where = `client_id = ${client} AND provider = ${literal(part.provider)}::"Provider"
          AND date BETWEEN ${from}::date AND ${to}::date`;
      selects.push(`SELECT ${requestIndex} AS request, ${partIndex} AS part, ${partSelect(part, where)}`);
    });
  });
  return selects.join('\nUNION ALL\n');
}

/** A part's key and sums over the facts `where` selects. */
function partSelect(part: Part, where: string): string {
  if (part.kind === 'table')
    return `dimension_value AS key, ${sumColumns(part.provider, 'count(DISTINCT date)')} FROM metric_facts
          WHERE ${where} AND dimension = ${literal(part.dimension)} GROUP BY GROUPING SETS ((dimension_value), ())`;
  const grains = part.grains.map((grain) => GRAIN_SQL[grain]);
  const grainOf = part.grains
    .map((grain) => `WHEN GROUPING(${GRAIN_SQL[grain]}) = 0 THEN '${grain}:' || (${GRAIN_SQL[grain]})::date::text`)
    .join(' ');
  return `${grains.length ? `CASE ${grainOf} END` : 'NULL'} AS key, ${sumColumns(part.provider, 'count(*)')}
        FROM metric_facts WHERE ${where} AND dimension = '' AND dimension_value = ''
        GROUP BY GROUPING SETS (()${grains.map((grain) => `, (${grain})`).join('')})`;
}

/** The values of the asked requests by the names reportSumsSql gives them. */
function sumsValues(asked: readonly SumsRequest[]): SumsParams {
  const values: SumsParams = {};
  asked.forEach((request, requestIndex) => {
    values[clientOf(requestIndex)] = request.clientId;
    request.ranges.forEach((range, rangeIndex) => {
      values[boundOf(requestIndex, rangeIndex, 'from')] = range.from;
      values[boundOf(requestIndex, rangeIndex, 'to')] = range.to;
    });
  });
  return values;
}

// Once per row of the statement (a report's every bucket of every range): a plain loop, as
// building from entries allocates an array per metric (see ai-visibility/metrics.ts, countersOf).
function toSums(row: Record<string, unknown>): Sums {
  const sums: Sums = {};
  for (const name of METRIC_COLUMNS) if (row[name] != null) sums[name] = Number(row[name]);
  return sums;
}
const emptySeries = (): SeriesSums => ({
  total: {},
  daysWithData: 0,
  buckets: { day: new Map(), week: new Map(), month: new Map() },
});
const emptyTable = (): TableSums => ({ byValue: new Map(), total: {}, daysWithData: 0 });
const emptySums = (parts: readonly Part[]) =>
  parts.map((part) => (part.kind === 'series' ? emptySeries() : emptyTable()));

// Planning a report's statement costs about a third of executing it; a single report's statement
// is named (parsed and planned once per connection). Its text depends only on the report's shape
// (providers, grains, dimensions, how many ranges), so the number of names stays small, and the
// statement is kept per shape rather than built and hashed again for every read. Batches of
// several reports are too varied to keep prepared.
const singleReportStatements = new LRUCache<string, TenantStatement<SumsRow, SumsParams>>({ max: 1024 });
const buildStatement = (asked: readonly SumsRequest[], named: (text: string) => string | null) =>
  tenantStatement<SumsRow, SumsParams>(named, (workspace, param) => reportSumsSql(asked, workspace, param));

function statementFor(asked: readonly SumsRequest[]): TenantStatement<SumsRow, SumsParams> {
  if (asked.length > 1) return buildStatement(asked, () => null);
  const [{ parts, ranges }] = asked as [SumsRequest];
  const shape = `${ranges.length}|${JSON.stringify(parts)}`;
  let statement = singleReportStatements.get(shape);
  if (!statement) {
    statement = buildStatement(asked, (text) => `report:${createHash('sha1').update(text).digest('base64url')}`);
    singleReportStatements.set(shape, statement);
  }
  return statement;
}

/** The sums of every part of every request, in one round trip. */
export async function queryReportSums(
  scope: WorkspaceScope,
  requests: readonly SumsRequest[],
): Promise<(SeriesSums | TableSums)[][]> {
  const results = requests.map((request) => emptySums(request.parts));
  const asked = requests.filter((request) => request.parts.length > 0);
  if (asked.length === 0) return results;
  const rows = await scope.rows(statementFor(asked), sumsValues(asked));
  const resultsOfAsked = asked.map((request) => results[requests.indexOf(request)]!);
  for (const row of rows) {
    const part = asked[row.request]!.parts[row.part]!;
    const target = resultsOfAsked[row.request]![row.part]!;
    if (part.kind === 'table') {
      const table = target as TableSums;
      if (row.key === null) [table.total, table.daysWithData] = [toSums(row), row.days_with_data];
      else table.byValue.set(row.key, toSums(row));
    } else {
      const series = target as SeriesSums;
      if (row.key === null) [series.total, series.daysWithData] = [toSums(row), row.days_with_data];
      else {
        const separator = row.key.indexOf(':');
        const bucket = { sums: toSums(row), daysWithData: row.days_with_data };
        series.buckets[row.key.slice(0, separator) as Granularity].set(row.key.slice(separator + 1), bucket);
      }
    }
  }
  return results;
}
