// Answers (runs) of a project, newest first by (date, id), in keyset pages: a page after any
// cursor costs the same, since it starts from the index position of the cursor. The same
// statement without a limit feeds the streaming export.
import type { AiModel } from '../shared/models.js';
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import { storedSpellings } from '../sources/domains.js';
import { groupByParent, inAskedOrder, perParentSql } from '../../db/per-parent.js';
import { runFilterSql, runFilterValues, type RunFilter } from '../shared/run-filter.js';
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

// $7 prompt, $8 mentioned, $9 cited domain.
const MATCHES = `a.project_id = $2 AND ${runFilterSql('a')} AND ($7::text IS NULL OR a.prompt_id = $7)
  AND ($8::boolean IS NULL OR (a.brand_mentions > 0) = $8)
  AND ($9::text[] IS NULL OR EXISTS (SELECT 1 FROM ai_citations c WHERE c.answer_id = a.id
  AND c.domain = ANY($9::text[])))`;

// Unnamed: planned for the values at hand, so a prompt filter uses the prompt index and an
// absent one the project index (a generic plan cannot tell them apart).
const pageOf = <Row>(selected: string) =>
  tenantStatement<Row>(
    null,
    (workspace) => `SELECT ${selected} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id
    WHERE ${workspace('a')} AND ${MATCHES} AND ($10::date IS NULL OR (a.date, a.id) < ($10::date, $11::text))
    ORDER BY a.date DESC, a.id DESC LIMIT $12`,
  );
const PAGE = pageOf<AnswerRow>(COLUMNS);
/**
 * The pages' statement with each JSON column as PostgreSQL's text, for the export to write as it
 * is, not parsed and written again (docs/decisions/ai-visibility-run-sets-and-export.md).
 */
const EXPORT_PAGE = pageOf<Omit<AnswerRow, keyof typeof JSON_COLUMNS> & Record<keyof typeof JSON_COLUMNS, string>>(
  columns('::text'),
);
const COUNT = tenantStatement<{ n: number }>(
  null,
  (workspace) => `SELECT count(*)::int AS n FROM ai_answers a WHERE ${workspace('a')} AND ${MATCHES}`,
);
// Without a prompt or domain filter the scans already hold the count: their stored runs, and
// (their counters being derived from those runs) the runs that mention the brand.
const COUNT_FROM_SCANS = tenantStatement<{ n: number }>(
  'answers.count-from-scans',
  (workspace) => `SELECT coalesce(sum(CASE WHEN $7::boolean IS NULL THEN a.answer_count WHEN $7 THEN a.visibility_count
    ELSE a.answer_count - a.visibility_count END), 0)::int AS n
    FROM scans a WHERE ${workspace('a')} AND a.project_id = $2 AND a.answer_count > 0 AND ${runFilterSql('a')}`,
);
const FIND = tenantStatement<AnswerRow>(
  'answers.find',
  (workspace) =>
    `SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id WHERE ${workspace('a')}
      AND a.project_id = $2 AND a.id = $3`,
);

// The web app's prompt → runs: one page of each prompt's answers in one statement.
const PAGES_OF_PROMPTS = tenantStatement<AnswerRow & { parentId: string }>('answers.pages-of-prompts', (workspace) =>
  perParentSql(`SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id
    WHERE ${workspace('a')} AND a.prompt_id = p.id AND ${runFilterSql('a')} AND ($7::date IS NULL
    OR (a.date, a.id) < ($7::date, $8::text))
    ORDER BY a.date DESC, a.id DESC LIMIT $9`),
);

const BY_IDS = tenantStatement<AnswerRow>(
  'answers.by-ids',
  (workspace) =>
    `SELECT ${COLUMNS} FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id WHERE ${workspace('a')}
      AND a.id = ANY($2::text[])`,
);

const filterValues = (projectId: string, filter: AnswerFilter) => [
  projectId,
  ...runFilterValues(filter),
  filter.promptId,
  filter.mentioned,
  filter.domain === null ? null : storedSpellings(filter.domain),
];

export function answerRepository(scope: WorkspaceScope) {
  return {
    /** `limit` rows after the cursor (and one more, to tell whether another page follows); null limit: every row. */
    page: (projectId: string, filter: AnswerFilter, after: AnswerCursor | null, limit: number | null) =>
      scope.rows(PAGE, [...filterValues(projectId, filter), after?.date ?? null, after?.id ?? null, limit]),
    /** Every row of `page` (no cursor, no limit), the JSON columns as text (ANSWER_JSON_TEXT_KEYS). */
    exportStatement: EXPORT_PAGE,
    pageValues: (projectId: string, filter: AnswerFilter) => [...filterValues(projectId, filter), null, null, null],
    count: async (projectId: string, filter: AnswerFilter): Promise<number> => {
      const [row] =
        filter.promptId === null && filter.domain === null
          ? await scope.rows(COUNT_FROM_SCANS, [projectId, ...runFilterValues(filter), filter.mentioned])
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
        await scope.rows(PAGES_OF_PROMPTS, [
          promptIds,
          ...runFilterValues(filter),
          after?.date ?? null,
          after?.id ?? null,
          limit,
        ]),
      ),
    byIds: async (ids: readonly string[]): Promise<(AnswerRow | null)[]> =>
      inAskedOrder(ids, await scope.rows(BY_IDS, [ids])),
    find: async (projectId: string, answerId: string): Promise<AnswerRow | null> =>
      (await scope.rows(FIND, [projectId, answerId]))[0] ?? null,
  };
}
