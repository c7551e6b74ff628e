// Answers (runs) of a project, newest first by (date, id), in keyset pages: a page after any
// cursor costs the same, since it starts from the index position of the cursor. The same
// statement without a limit feeds the streaming export.
import type { AiModel } from '../common/models.js';
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { tenantStatement } from '../../db/tenant-sql.js';
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
const COLUMNS = columns('');
/** The keys of an export row that hold PostgreSQL's JSON text. */
export const ANSWER_JSON_TEXT_KEYS = Object.keys(JSON_COLUMNS) as readonly (keyof typeof JSON_COLUMNS)[];

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
const pageOf = <Row>(selected: string) =>
  tenantStatement<Row, AnswerPageParams>(
    null,
    (workspace, param) => `SELECT ${selected} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id
    WHERE ${workspace('a')} AND ${matches(param)} AND ${afterSql(param)}
    ORDER BY a.date DESC, a.id DESC LIMIT ${param('limit')}`,
  );
const PAGE = pageOf<AnswerRow>(COLUMNS);
/**
 * The pages' statement with each JSON column as PostgreSQL's text, for the export to write as it
 * is, not parsed and written again (docs/decisions/ai-visibility-run-sets-and-export.md).
 */
const EXPORT_PAGE = pageOf<Omit<AnswerRow, keyof typeof JSON_COLUMNS> & Record<keyof typeof JSON_COLUMNS, string>>(
  columns('::text'),
);
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
const FIND = tenantStatement<AnswerRow, { projectId: string; id: string }>(
  'answers.find',
  (workspace, param) =>
    `SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id WHERE ${workspace('a')}
      AND a.project_id = ${param('projectId')} AND a.id = ${param('id')}`,
);

// The web app's prompt → runs: one page of each prompt's answers in one statement.
const PAGES_OF_PROMPTS = tenantStatement<
  AnswerRow & { parentId: string },
  RunFilterParams & AfterParams & { parentIds: readonly string[]; limit: number }
>('answers.pages-of-prompts', (workspace, param) =>
  perParent(
    param('parentIds'),
    `SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id
    WHERE ${workspace('a')} AND a.prompt_id = p.id AND ${runFilterSql('a', param)} AND ${afterSql(param)}
    ORDER BY a.date DESC, a.id DESC LIMIT ${param('limit')}`,
  ),
);

const BY_IDS = tenantStatement<AnswerRow, { ids: readonly string[] }>(
  'answers.by-ids',
  (workspace, param) =>
    `SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id WHERE ${workspace('a')}
      AND a.id = ANY(${param('ids')}::text[])`,
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

export function answerRepository(scope: WorkspaceScope) {
  return {
    /** `limit` rows after the cursor (and one more, to tell whether another page follows); null limit: every row. */
    page: (projectId: string, filter: AnswerFilter, after: AnswerCursor | null, limit: number | null) =>
      scope.rows(PAGE, { ...filterValues(projectId, filter), ...afterValues(after), limit }),
    /** Every row of `page` (no cursor, no limit), the JSON columns as text (ANSWER_JSON_TEXT_KEYS). */
    exportStatement: EXPORT_PAGE,
    pageValues: (projectId: string, filter: AnswerFilter): AnswerPageParams => ({
      ...filterValues(projectId, filter),
      ...afterValues(null),
      limit: null,
    }),
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
        await scope.rows(PAGES_OF_PROMPTS, {
          parentIds: promptIds,
          ...runFilterValues(filter),
          ...afterValues(after),
          limit,
        }),
      ),
    byIds: async (ids: readonly string[]): Promise<(AnswerRow | null)[]> =>
      inAskedOrder(ids, await scope.rows(BY_IDS, { ids })),
    find: async (projectId: string, answerId: string): Promise<AnswerRow | null> =>
      (await scope.rows(FIND, { projectId, id: answerId }))[0] ?? null,
  };
}
