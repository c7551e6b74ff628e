// What the metrics, answers, sources, search-queries and opportunities endpoints stream when
// asked for CSV or NDJSON: every row of the filtered range (no cap, no limit), each record exactly
// the row the JSON answer would hold. Rows are read through a database cursor, except the
// opportunities, which are ranked in JavaScript from a few aggregate rows: computed, then
// streamed, one row per item with its list's `kind`. The filters are the resolvers' own.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { TenantStatement } from '../db/tenant-sql.js';
import { ANSWER_JSON_TEXT_KEYS, answerRepository } from './answers/answer-repository.js';
import { ownershipOf } from './sources/domains.js';
import { metricsRowOf, METRICS_ROWS } from './metrics/metrics.js';
import { COUNTER_FIELDS } from './metrics/pooled-rates.js';
import {
  answerFilterOf,
  runFilterOf,
  SCAN_RANGE,
  searchQueryFilterOf,
  sourceFilterOf,
  type AnswerArgs,
  type SourceArgs,
} from './shared/read-filters.js';
import {
  OPPORTUNITY_KINDS,
  opportunityKindsOf,
  queryOpportunities,
  type OpportunityKindChoice,
} from './opportunities/opportunities.js';
import { sourceRow, type SourceSums } from './sources/source-shares.js';
import { sourcesStatement, sourcesValues } from './sources/sources.js';
import {
  SEARCH_QUERIES,
  searchQueryRow,
  searchQueryValues,
  type SearchQuerySums,
} from './search-queries/search-queries.js';
import type { ProjectRow } from './projects/project-repository.js';

/** Where an export's rows come from: a statement read through a cursor, or rows computed in memory. */
export type RowSource =
  | { statement: TenantStatement<Record<string, any>>; values: unknown[] }
  | { computed(): Promise<Record<string, any>[]> };

export type RowExport = RowSource & {
  /** CSV columns, in order; nested values are written as JSON. */
  columns: readonly string[];
  /**
   * Keys of the record that hold JSON as PostgreSQL prints it (a column selected `::text`),
   * written as they are: the same JSON values as the JSON answer's, spaced `", "` and `": "`.
   */
  jsonText?: readonly string[];
  record(row: Record<string, any>): Record<string, unknown>;
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

const RATE_FIELDS = ['visibility', 'shareOfVoice', 'averagePosition', 'sentiment'] as const;

/** By the GraphQL query field of the v1 route that offers the export. */
export const ROW_EXPORTS: Readonly<Record<string, ExportBuilder>> = {
  aiVisibilityMetrics: (_scope, project, args, now) => {
    const filter = runFilterOf(args, now, SCAN_RANGE);
    return {
      statement: METRICS_ROWS,
      values: [[project.id], filter.range.from, filter.range.to, filter.model, filter.locale, null],
      columns: ['date', 'model', 'locale', ...COUNTER_FIELDS, ...RATE_FIELDS, 'competitors'],
      record: (row) => metricsRowOf(row) as unknown as Record<string, unknown>,
      filename: `metrics-${project.id}`,
    };
  },
  aiVisibilityAnswers: (scope, project, args, now) => {
    const answers = answerRepository(scope);
    return {
      statement: answers.exportStatement as TenantStatement<Record<string, any>>,
      values: answers.pageValues(project.id, answerFilterOf(args, now)),
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
    };
  },
  aiVisibilitySources: (_scope, project, args, now) => {
    const filter = sourceFilterOf(args, now);
    const ownership = ownershipOf(project);
    return {
      statement: sourcesStatement(filter) as TenantStatement<Record<string, any>>,
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
      record: ({ total: _total, ...sums }) => {
        const row = sourceRow(sums as SourceSums, ownership);
        return { ...row, url: row.url ?? null };
      },
      filename: `sources-${project.id}`,
    };
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
  aiVisibilitySearchQueries: (_scope, project, args, now) => ({
    statement: SEARCH_QUERIES as TenantStatement<Record<string, any>>,
    values: searchQueryValues(project.id, searchQueryFilterOf(args, now), null),
    columns: ['locale', 'query', 'runs', 'promptCount', 'visibilityCount', 'visibility'],
    record: (row) => searchQueryRow(row as SearchQuerySums) as unknown as Record<string, unknown>,
    filename: `search-queries-${project.id}`,
  }),
};
