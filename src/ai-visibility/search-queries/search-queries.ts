// The web searches engines ran for a project's prompts: one row per locale × query (trimmed,
// lower-cased), with the runs that ran it, the prompts they belong to and the brand's
// visibility in those runs, pooled per locale. The range's runs are counted per prompt, locale and
// query set from a narrow index of the answers (shared/string-sets.ts), each distinct set is
// expanded once, then prompts are counted per query, so no distinct count sorts the range
// (docs/decisions/ai-visibility-run-sets-and-export.md). The same statement without a limit feeds
// the streaming export.
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { tenantStatement, type WorkspaceBinding } from '../../db/tenant-sql.js';
import { groupByParent } from '../../db/per-parent.js';
import { ratio } from '../metrics/pooled-rates.js';
import { runFilterOf, type RunFilterArgs } from '../common/read-filters.js';
import { runFilterSql, runFilterValues, type RunFilter, type RunFilterParams } from '../common/run-filter.js';
import type { ParamOf } from '../../db/named-parameters.js';

export interface SearchQueryFilter extends RunFilter {
  promptId: string | null;
}

export interface SearchQueryArgs extends RunFilterArgs {
  promptId?: string | null | undefined;
}

export const searchQueryFilterOf = (args: SearchQueryArgs, now: Date): SearchQueryFilter => ({
  ...runFilterOf(args, now),
  promptId: args.promptId ?? null,
});

export interface SearchQuerySums {
  locale: string;
  query: string;
  runs: number;
  promptCount: number;
  visibilityCount: number;
}

export interface SearchQueryRow extends SearchQuerySums {
  /** visibilityCount / runs. */
  visibility: number | null;
}

type SearchQueryParams = RunFilterParams & { projectId: string; promptId: string | null; perLocale: number | null };

/** The range's runs counted per prompt, locale and query set, then each set's keys: `prompts` narrows the prompts. */
const KEY_SETS = (
  workspace: WorkspaceBinding,
  param: ParamOf<RunFilterParams & { projectId: string }>,
  prompts: string,
) => `SELECT s.prompt_id, s.locale, k.members AS queries, s.runs, s.visible
  FROM (SELECT a.prompt_id, a.locale, a.query_set, count(*) AS runs,
  count(*) FILTER (WHERE a.brand_mentions > 0) AS visible
        FROM ai_answers a
        WHERE ${workspace('a')} AND a.project_id = ${param('projectId')} AND a.query_set IS NOT NULL
        AND ${runFilterSql('a', param)}
        AND ${prompts}
        GROUP BY a.prompt_id, a.locale, a.query_set) s
  JOIN ai_string_sets k ON ${workspace('k')} AND k.project_id = ${param('projectId')} AND k.id = s.query_set`;

const promptOrAll = (param: ParamOf<{ promptId: string | null }>) =>
  `(${param('promptId')}::text IS NULL OR a.prompt_id = ${param('promptId')})`;

// promptId: a prompt or null; perLocale: rows per locale or null (all).
export const SEARCH_QUERIES = tenantStatement<SearchQuerySums & { total: number }, SearchQueryParams>(
  null,
  (workspace, param) => `WITH per_prompt AS (
      SELECT s.locale, q.query, s.prompt_id, sum(s.runs) AS runs, sum(s.visible) AS visible
      FROM (${KEY_SETS(workspace, param, promptOrAll(param))}) s
      CROSS JOIN LATERAL unnest(s.queries) AS q(query)
      GROUP BY s.locale, q.query, s.prompt_id),
    grouped AS (
      SELECT locale, query, sum(runs)::int AS runs, count(*)::int AS "promptCount",
      sum(visible)::int AS "visibilityCount"
      FROM per_prompt GROUP BY locale, query),
    ranked AS (
      SELECT g.*, row_number() OVER (PARTITION BY g.locale ORDER BY g.runs DESC, g.query COLLATE "C") AS rank,
      count(*) OVER ()::int AS total FROM grouped g)
    SELECT locale, query, runs, "promptCount", "visibilityCount", total FROM ranked
    WHERE ${param('perLocale')}::int IS NULL OR rank <= ${param('perLocale')}
    ORDER BY locale COLLATE "C", runs DESC, query COLLATE "C"`,
);

// The same per prompt, for many prompts at once (the graph's prompt → searchQueries).
const OF_PROMPTS = tenantStatement<
  SearchQuerySums & { parentId: string },
  RunFilterParams & { projectId: string; promptIds: readonly string[]; perLocale: number }
>(
  'search-queries.of-prompts',
  (workspace, param) => `WITH grouped AS (
      SELECT s.prompt_id, s.locale, q.query, sum(s.runs)::int AS runs, 1 AS "promptCount",
      sum(s.visible)::int AS "visibilityCount"
      FROM (${KEY_SETS(workspace, param, `a.prompt_id = ANY(${param('promptIds')}::text[])`)}) s
      CROSS JOIN LATERAL unnest(s.queries) AS q(query)
      GROUP BY s.prompt_id, s.locale, q.query),
    ranked AS (SELECT g.*, row_number() OVER (PARTITION BY g.prompt_id, g.locale
      ORDER BY g.runs DESC, g.query COLLATE "C") AS rank FROM grouped g)
    SELECT prompt_id AS "parentId", locale, query, runs, "promptCount", "visibilityCount" FROM ranked
    WHERE rank <= ${param('perLocale')}
    ORDER BY prompt_id, locale COLLATE "C", runs DESC, query COLLATE "C"`,
);

export const searchQueryValues = (
  projectId: string,
  filter: SearchQueryFilter,
  perLocale: number | null,
): SearchQueryParams => ({ projectId, ...runFilterValues(filter), promptId: filter.promptId, perLocale });

export const searchQueryRow = ({
  locale,
  query,
  runs,
  promptCount,
  visibilityCount,
}: SearchQuerySums): SearchQueryRow => ({
  locale,
  query,
  runs,
  promptCount,
  visibilityCount,
  visibility: ratio(visibilityCount, runs),
});

/** Each prompt's `perLocale` most run queries per locale, in one statement whatever their number. */
export async function searchQueriesOfPrompts(
  scope: WorkspaceScope,
  projectId: string,
  promptIds: readonly string[],
  filter: RunFilter,
  perLocale: number,
): Promise<SearchQueryRow[][]> {
  const rows = await scope.rows(OF_PROMPTS, { projectId, ...runFilterValues(filter), promptIds, perLocale });
  return groupByParent(promptIds, rows).map((group) => group.map(searchQueryRow));
}

/** The `perLocale` most run queries of each locale, and how many rows there are before that cap. */
export async function querySearchQueries(
  scope: WorkspaceScope,
  projectId: string,
  filter: SearchQueryFilter,
  perLocale: number,
): Promise<{ rows: SearchQueryRow[]; total: number }> {
  const rows = await scope.rows(SEARCH_QUERIES, searchQueryValues(projectId, filter, perLocale));
  return { rows: rows.map(searchQueryRow), total: rows[0]?.total ?? 0 };
}
