// What the metrics, answers, sources, search-queries and opportunities endpoints stream when
// asked for CSV or NDJSON: every row of the filtered range (no cap, no limit), each record exactly
// the row the JSON answer would hold. Rows are read through a database cursor, except the
// opportunities, which are ranked in JavaScript from a few aggregate rows: computed, then
// streamed, one row per item with its list's `kind`. The filters are the resolvers' own.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { TenantStatement } from '../db/tenant-sql.js';
import { ANSWER_JSON_TEXT_KEYS, ANSWERS_EXPORT, answersExportValues } from './answers/answer-repository.js';
import { ownershipOf } from './sources/domains.js';
import { metricsRowOf, METRICS_ROWS } from './metrics/metrics.js';
import { RATE_FIELDS } from './metrics/period-comparison.js';
import { COUNTER_FIELDS } from './metrics/pooled-rates.js';
import { answerFilterOf, type AnswerArgs } from './answers/answer-filter.js';
import { runFilterOf, SCAN_RANGE } from './common/read-filters.js';
import { runFilterValues } from './common/run-filter.js';
import {
  OPPORTUNITY_KINDS,
  opportunityKindsOf,
  queryOpportunities,
  type OpportunityKindChoice,
} from './opportunities/opportunities.js';
import { sourceRow } from './sources/source-shares.js';
import { sourceFilterOf, sourcesStatement, sourcesValues, type SourceArgs } from './sources/sources.js';
import {
  SEARCH_QUERIES,
  searchQueryFilterOf,
  searchQueryRow,
  searchQueryValues,
} from './search-queries/search-queries.js';
import type { ProjectRow } from './projects/project-repository.js';

/** A row as the export writes it: its values by column name. */
export type ExportRecord = Record<string, unknown>;

/** Where an export's rows come from: a statement read through a cursor, or rows computed in memory. */
export type RowSource =
  { statement: TenantStatement<ExportRecord, object>; values: object } | { computed(): Promise<ExportRecord[]> };

export type RowExport = RowSource & {
  /** CSV columns, in order; nested values are written as JSON. */
  columns: readonly string[];
  /**
   * Keys of the record that hold JSON as PostgreSQL prints it (a column selected `::text`),
   * written as they are: the same JSON values as the JSON answer's, spaced `", "` and `": "`.
   */
  jsonText?: readonly string[];
  record(row: ExportRecord): ExportRecord;
  /** A name for the file (Content-Disposition). */
  filename: string;
};

export type ExportArgs = AnswerArgs & SourceArgs & { kind?: OpportunityKindChoice | null };

/** Every figure of the three opportunity lists, in the JSON items' order; an item leaves the others empty. */
const OPPORTUNITY_COLUMNS = [
  'kind',
  'locale',
  'score',
  'promptId',
  'prompt',
  'runs',
  'brandVisibility',
  'bestCompetitor',
  'domain',
  'citations',
  'answers',
  'competitors',
  'competitor',
  'url',
  'retrievals',
  'retrievedNotCited',
  'citedRate',
] as const;

type ExportBuilder = (scope: WorkspaceScope, project: ProjectRow, args: ExportArgs, now: Date) => RowExport;

/**
 * An export read through a statement, declared with the statement's own row type: `record` is
 * checked against the rows the statement returns. The cursor hands them over untyped.
 */
const fromStatement = <Row, P extends object>(
  rows: Omit<RowExport, 'statement' | 'values' | 'computed' | 'record'> & {
    statement: TenantStatement<Row, P>;
    values: P;
    record(row: Row): object;
  },
): RowExport => rows as unknown as RowExport;

/** By the GraphQL query field of the v1 route that offers the export. */
export const ROW_EXPORTS: Readonly<Record<string, ExportBuilder>> = {
  aiVisibilityMetrics: (_scope, project, args, now) => {
    const filter = runFilterOf(args, now, SCAN_RANGE);
    return fromStatement({
      statement: METRICS_ROWS,
      values: { parentIds: [project.id], ...runFilterValues(filter), cap: null },
      columns: ['date', 'model', 'locale', ...COUNTER_FIELDS, ...RATE_FIELDS, 'competitors'],
      record: metricsRowOf,
      filename: `metrics-${project.id}`,
    });
  },
  aiVisibilityAnswers: (scope, project, args, now) => {
    return fromStatement({
      statement: ANSWERS_EXPORT,
      values: answersExportValues(project.id, answerFilterOf(args, now)),
      columns: [
        'id',
        'projectId',
        'promptId',
        'prompt',
        'date',
        'model',
        'locale',
        'text',
        'brandMentions',
        'totalMentions',
        'position',
        'sentiment',
        ...ANSWER_JSON_TEXT_KEYS,
      ],
      jsonText: ANSWER_JSON_TEXT_KEYS,
      record: (row) => row,
      filename: `answers-${project.id}`,
    });
  },
  aiVisibilitySources: (_scope, project, args, now) => {
    const filter = sourceFilterOf(args, now);
    const ownership = ownershipOf(project);
    return fromStatement({
      statement: sourcesStatement(filter),
      values: sourcesValues(project, filter, null),
      columns: [
        'locale',
        'domain',
        ...(filter.groupBy === 'url' ? ['url'] : []),
        'citations',
        'answersCiting',
        'citationShare',
        'answerShare',
        'retrievals',
        'retrievedNotCited',
        'owned',
        'competitor',
      ],
      record: (sums) => {
        const row = sourceRow(sums, ownership);
        return { ...row, url: row.url ?? null };
      },
      filename: `sources-${project.id}`,
    });
  },
  aiVisibilityOpportunities: (scope, project, args, now) => ({
    computed: async () => {
      const lists = await queryOpportunities(
        scope,
        project,
        runFilterOf(args, now),
        opportunityKindsOf(args.kind),
        Infinity,
      );
      return OPPORTUNITY_KINDS.flatMap((kind) => lists[kind].map((item) => ({ kind, ...item })));
    },
    columns: OPPORTUNITY_COLUMNS,
    record: (row) => row,
    filename: `opportunities-${project.id}`,
  }),
  aiVisibilitySearchQueries: (_scope, project, args, now) =>
    fromStatement({
      statement: SEARCH_QUERIES,
      values: searchQueryValues(project.id, searchQueryFilterOf(args, now), null),
      columns: ['locale', 'query', 'runs', 'promptCount', 'visibilityCount', 'visibility'],
      record: searchQueryRow,
      filename: `search-queries-${project.id}`,
    }),
};
