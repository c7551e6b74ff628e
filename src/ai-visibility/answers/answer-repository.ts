// Answers (runs) of a project, newest first by (date, id), in keyset pages: a page after any
// cursor costs the same, since it starts from the index position of the cursor. The same
// statement without a limit feeds the streaming export.
import type { AiModel } from '../common/models.js';
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { tenantStatement, type WorkspaceBinding } from '../../db/tenant-sql.js';
import { readTooLarge } from '../../http/response-size.js';
import type { ParamOf } from '../../db/named-parameters.js';
import { storedSpellings } from '../sources/domains.js';
import { groupByParent, inAskedOrder, perParent } from '../../db/per-parent.js';
import { runFilterSql, runFilterValues, type RunFilter, type RunFilterParams } from '../common/run-filter.js';
import type { Sentiment } from './runs.js';
import type { RetrievedPage } from './retrieval.js';
import type { AnswerFilter } from './answer-filter.js';

export interface AnswerRow {
  id: string;
  projectId: string;
  promptId: string;
  prompt: string;
  date: string;
  model: AiModel;
  locale: string;
  text: string;
  brandMentions: number;
  totalMentions: number;
  position: number | null;
  sentiment: Sentiment | null;
  competitors: { name: string; mentions: number; position: number | null }[];
  citations: { position: number; url: string; domain: string; title: string | null }[];
  /** The web searches the engine ran, in its order. */
  searchQueries: string[];
  retrieved: RetrievedPage[];
}

export interface AnswerCursor {
  date: string;
  id: string;
}

/** The stored JSON columns, by the key an answer has them under. */
const JSON_COLUMNS = {
  competitors: 'competitors',
  citations: 'citations',
  searchQueries: 'search_queries',
  retrieved: 'retrieved',
} as const;
const SCALAR_COLUMNS = `a.id, a.project_id AS "projectId", a.prompt_id AS "promptId", pr.text AS prompt, a.date,
  a.model, a.locale, a.text,
  a.brand_mentions AS "brandMentions", a.total_mentions AS "totalMentions", a.position, a.sentiment`;
const columns = (cast: '' | '::text') =>
  `${SCALAR_COLUMNS}, ${Object.entries(JSON_COLUMNS)
    .map(([key, column]) => `a.${column}${cast} AS "${key}"`)
    .join(', ')}`;
// What a row holds once read, from the sizes PostgreSQL keeps beside each value (no value is read whole to
// measure it): the answer's text and its JSON columns.
const ROW_BYTES = `octet_length(a.text) + ${Object.values(JSON_COLUMNS)
  .map((column) => `pg_column_size(a.${column})`)
  .join(' + ')}`;
const COLUMNS = `${columns('')}, ${ROW_BYTES} AS "rowBytes"`;
/** The keys of an export row that hold PostgreSQL's JSON text. */
export const ANSWER_JSON_TEXT_KEYS = Object.keys(JSON_COLUMNS) as readonly (keyof typeof JSON_COLUMNS)[];

/** The rows of a statement, each with the running total of what the statement read up to it. */
type Weighed<Row> = Row & { rowBytes: number; readBytes: number };
type ReadBudget = { readMaxBytes: number };

/**
 * `inner`'s rows (selecting COLUMNS) in its order, up to and including the first whose running total of
 * `rowBytes` passes `readMaxBytes`: a request asking for more answers than it may hold reads one row
 * over its budget, never the rest (500 prompts × 100 runs of 100 000-character texts were 5 GB).
 */
const withinBudget = (inner: string, param: ParamOf<ReadBudget>) =>
  `SELECT * FROM (SELECT r.*, (sum(r."rowBytes") OVER (ROWS UNBOUNDED PRECEDING))::float8 AS "readBytes"
    FROM (${inner}) r) w WHERE w."readBytes" - w."rowBytes" < ${param('readMaxBytes')}`;

type AnswerMatchParams = RunFilterParams & {
  projectId: string;
  promptId: string | null;
  mentioned: boolean | null;
  domains: string[] | null;
};
type AfterParams = { afterDate: string | null; afterId: string | null };
type AnswerPageParams = AnswerMatchParams & AfterParams & { limit: number | null };

// The answers of a project that match the filter, a prompt, "mentioned" and a cited domain.
const matches = (param: ParamOf<AnswerMatchParams>) => `a.project_id = ${param('projectId')} AND ${runFilterSql(
  'a',
  param,
)} AND (${param('promptId')}::text IS NULL OR a.prompt_id = ${param('promptId')})
  AND (${param('mentioned')}::boolean IS NULL OR (a.brand_mentions > 0) = ${param('mentioned')})
  AND (${param('domains')}::text[] IS NULL OR EXISTS (SELECT 1 FROM ai_citations c WHERE c.answer_id = a.id
  AND c.domain = ANY(${param('domains')}::text[])))`;
const afterSql = (param: ParamOf<AfterParams>) =>
  `(${param('afterDate')}::date IS NULL OR (a.date, a.id) < (${param('afterDate')}::date, ${param('afterId')}::text))`;

// Unnamed: planned for the values at hand, so a prompt filter uses the prompt index and an
// absent one the project index (a generic plan cannot tell them apart).
const pageSql = (selected: string, workspace: WorkspaceBinding, param: ParamOf<AnswerPageParams>) =>
  `SELECT ${selected} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id
    WHERE ${workspace('a')} AND ${matches(param)} AND ${afterSql(param)}
    ORDER BY a.date DESC, a.id DESC LIMIT ${param('limit')}`;
const PAGE = tenantStatement<Weighed<AnswerRow>, AnswerPageParams & ReadBudget>(null, (workspace, param) =>
  withinBudget(pageSql(COLUMNS, workspace, param), param),
);
/**
 * The pages' statement with each JSON column as PostgreSQL's text, for the export to write as it
 * is, not parsed and written again (docs/decisions/ai-visibility-run-sets-and-export.md).
 */
export const ANSWERS_EXPORT = tenantStatement<
  Omit<AnswerRow, keyof typeof JSON_COLUMNS> & Record<keyof typeof JSON_COLUMNS, string>,
  AnswerPageParams
>(null, (workspace, param) => pageSql(columns('::text'), workspace, param));
const COUNT = tenantStatement<{ n: number }, AnswerMatchParams>(
  null,
  (workspace, param) => `SELECT count(*)::int AS n FROM ai_answers a WHERE ${workspace('a')} AND ${matches(param)}`,
);
// Without a prompt or domain filter the scans already hold the count: their stored runs, and
// (their counters being derived from those runs) the runs that mention the brand.
const COUNT_FROM_SCANS = tenantStatement<
  { n: number },
  RunFilterParams & { projectId: string; mentioned: boolean | null }
>(
  'answers.count-from-scans',
  (workspace, param) => `SELECT coalesce(sum(CASE WHEN ${param('mentioned')}::boolean IS NULL THEN a.answer_count
    WHEN ${param('mentioned')} THEN a.visibility_count ELSE a.answer_count - a.visibility_count END), 0)::int AS n
    FROM scans a WHERE ${workspace('a')} AND a.project_id = ${param('projectId')} AND a.answer_count > 0
    AND ${runFilterSql('a', param)}`,
);
// One answer, always within a request's bound (its text is at most 100 000 characters): not weighed.
const FIND = tenantStatement<AnswerRow, { projectId: string; id: string }>(
  'answers.find',
  (workspace, param) =>
    `SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id WHERE ${workspace('a')}
      AND a.project_id = ${param('projectId')} AND a.id = ${param('id')}`,
);

// The web app's prompt → runs: one page of each prompt's answers in one statement.
const PAGES_OF_PROMPTS = tenantStatement<
  Weighed<AnswerRow & { parentId: string }>,
  RunFilterParams & AfterParams & ReadBudget & { parentIds: readonly string[]; limit: number }
>('answers.pages-of-prompts', (workspace, param) =>
  withinBudget(
    perParent(
      param('parentIds'),
      `SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id
      WHERE ${workspace('a')} AND a.prompt_id = p.id AND ${runFilterSql('a', param)} AND ${afterSql(param)}
      ORDER BY a.date DESC, a.id DESC LIMIT ${param('limit')}`,
    ),
    param,
  ),
);

const BY_IDS = tenantStatement<Weighed<AnswerRow>, { ids: readonly string[] } & ReadBudget>(
  'answers.by-ids',
  (workspace, param) =>
    withinBudget(
      `SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id WHERE ${workspace('a')}
      AND a.id = ANY(${param('ids')}::text[])`,
      param,
    ),
);

const filterValues = (projectId: string, filter: AnswerFilter): AnswerMatchParams => ({
  projectId,
  ...runFilterValues(filter),
  promptId: filter.promptId,
  mentioned: filter.mentioned,
  domains: filter.domain === null ? null : storedSpellings(filter.domain),
});
const afterValues = (after: AnswerCursor | null): AfterParams => ({
  afterDate: after?.date ?? null,
  afterId: after?.id ?? null,
});

/** ANSWERS_EXPORT's values: every row of a page's filter (no cursor, no limit). */
export const answersExportValues = (projectId: string, filter: AnswerFilter): AnswerPageParams => ({
  ...filterValues(projectId, filter),
  ...afterValues(null),
  limit: null,
});

/**
 * What one request may read of answers: twice the response byte cap. An answer read is held whole whatever the
 * response keeps of it, and a page reads one row past itself to tell whether another follows (a prompt's
 * `runs(first: 1)` reads two), so an answer that fits the cap never reads more than twice it.
 */
export const answersReadMaxBytes = (responseMaxBytes: number) => 2 * responseMaxBytes;

/**
 * Answers of one request's workspace, at most `readMaxBytes` of them read (answersReadMaxBytes): each statement reads
 * at most what is left, and a request past it is refused with response_too_large.
 */
export function answerRepository(scope: WorkspaceScope, readMaxBytes: number) {
  let left = readMaxBytes;
  const spent = <Row extends { readBytes: number }>(rows: Row[]): Row[] => {
    const read = rows.at(-1)?.readBytes ?? 0;
    if (read > left) throw readTooLarge(readMaxBytes, 'answers');
    left -= read;
    return rows;
  };
  return {
    /** `limit` rows after the cursor (and one more, to tell whether another page follows); null limit: every row. */
    page: async (projectId: string, filter: AnswerFilter, after: AnswerCursor | null, limit: number | null) =>
      spent(
        await scope.rows(PAGE, {
          ...filterValues(projectId, filter),
          ...afterValues(after),
          limit,
          readMaxBytes: left,
        }),
      ),
    count: async (projectId: string, filter: AnswerFilter): Promise<number> => {
      const [row] =
        filter.promptId === null && filter.domain === null
          ? await scope.rows(COUNT_FROM_SCANS, { projectId, ...runFilterValues(filter), mentioned: filter.mentioned })
          : await scope.rows(COUNT, filterValues(projectId, filter));
      return row!.n;
    },
    pagesOfPrompts: async (
      promptIds: readonly string[],
      filter: RunFilter,
      after: AnswerCursor | null,
      limit: number,
    ): Promise<AnswerRow[][]> =>
      groupByParent(
        promptIds,
        spent(
          await scope.rows(PAGES_OF_PROMPTS, {
            parentIds: promptIds,
            ...runFilterValues(filter),
            ...afterValues(after),
            limit,
            readMaxBytes: left,
          }),
        ),
      ),
    byIds: async (ids: readonly string[]): Promise<(AnswerRow | null)[]> =>
      inAskedOrder(ids, spent(await scope.rows(BY_IDS, { ids, readMaxBytes: left }))),
    find: async (projectId: string, answerId: string): Promise<AnswerRow | null> =>
      (await scope.rows(FIND, { projectId, id: answerId }))[0] ?? null,
  };
}
