// Who the assistants cite: one row per locale × domain (or URL) with citation and answer
// shares. By domain without a prompt filter, the per-scan totals kept at ingestion are summed
// (ai_source_totals: a 90-day range reads thousands of rows, not millions of citations); by
// prompt or by URL, the citations themselves, beside the pages read. Each locale is its own
// population. The same statement without a limit feeds the streaming export.
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { tenantStatement, type TenantStatement, type WorkspaceBinding } from '../../db/tenant-sql.js';
import { runFilterSql, runFilterValues, type RunFilter, type RunFilterParams } from '../common/run-filter.js';
import type { ParamOf } from '../../db/named-parameters.js';
import type { SourceSums } from './source-shares.js';
import { ownedSpellings } from './domains.js';
import { runFilterOf, type RunFilterArgs } from '../common/read-filters.js';

export const SOURCE_GROUPINGS = ['domain', 'url'] as const;
export type SourceGrouping = (typeof SOURCE_GROUPINGS)[number];

export interface SourceFilter extends RunFilter {
  promptId: string | null;
  groupBy: SourceGrouping;
  /** Only the project's own domains. */
  owned: boolean;
}

export interface SourceArgs extends RunFilterArgs {
  promptId?: string | null | undefined;
  groupBy?: SourceGrouping | null | undefined;
  owned?: boolean | null | undefined;
}

export const sourceFilterOf = (args: SourceArgs, now: Date): SourceFilter => ({
  ...runFilterOf(args, now),
  promptId: args.promptId ?? null,
  groupBy: args.groupBy ?? 'domain',
  owned: args.owned ?? false,
});

type SourceSumsRow = SourceSums & { total: number };

type SourceParams = RunFilterParams & {
  projectId: string;
  promptId: string | null;
  perLocale: number | null;
  owned: string[] | null;
};
type SourceParam = ParamOf<SourceParams>;

// Pages read per locale and domain (or URL): a run counts once. By prompt, from its runs' distinct
// pages (ai_answers.pages_read), where at the domain level a run read the domain "without citing
// it" when it cites no URL of the domain; for the whole project by URL, from the per-scan page
// totals (by domain, the source totals carry them).
function retrievalsSql(
  workspace: WorkspaceBinding,
  param: SourceParam,
  groupBy: SourceGrouping,
  byPrompt: boolean,
): string {
  const [project, prompt] = [param('projectId'), param('promptId')];
  const key = groupBy === 'url' ? 'domain, url' : 'domain';
  if (!byPrompt) {
    return `SELECT t.locale, ${key}, sum(t.retrievals)::float8 AS retrievals,
      sum(t.retrieved_not_cited)::float8 AS retrieved_not_cited
      FROM ai_page_totals t WHERE ${workspace('t')} AND t.project_id = ${project} AND ${prompt}::text IS NULL
      AND ${runFilterSql('t', param)}
      GROUP BY t.locale, ${key}`;
  }
  const notCited =
    groupBy === 'url' ? 'NOT p.cited' : `NOT a.citations @> jsonb_build_array(jsonb_build_object('domain', p.domain))`;
  return `SELECT a.locale, ${key}, count(DISTINCT a.id)::float8 AS retrievals,
    count(DISTINCT a.id) FILTER (WHERE ${notCited})::float8 AS retrieved_not_cited
    FROM ai_answers a CROSS JOIN LATERAL jsonb_to_recordset(a.pages_read) AS p(url text, domain text, cited boolean)
    WHERE ${workspace('a')} AND a.project_id = ${project} AND a.prompt_id = ${prompt}
    AND ${runFilterSql('a', param)}
    GROUP BY a.locale, ${key}`;
}

// promptId: a prompt or null; perLocale: rows per locale or null (all); owned: owned domains or null (all).
function sourcesSql(
  workspace: WorkspaceBinding,
  param: SourceParam,
  groupBy: SourceGrouping,
  byPrompt: boolean,
): string {
  const [project, prompt] = [param('projectId'), param('promptId')];
  const runs = byPrompt
    ? `SELECT s.locale, count(*)::float8 AS n FROM ai_answers s WHERE ${workspace('s')} AND s.project_id = ${project}
      AND s.prompt_id = ${prompt} AND ${runFilterSql('s', param)} GROUP BY s.locale`
    : `SELECT s.locale, sum(s.answer_count)::float8 AS n FROM scans s WHERE ${workspace('s')}
      AND s.project_id = ${project}
      AND ${prompt}::text IS NULL AND ${runFilterSql('s', param)} GROUP BY s.locale`;
  const key = groupBy === 'url' ? 'domain, url' : 'domain';
  const keyColumns = key.split(', ');
  // Ties in code-point order whatever the database's collation (a managed PostgreSQL's en-US puts "a" before "B").
  const inCodePointOrder = (alias: string) => keyColumns.map((column) => `${alias}.${column} COLLATE "C"`).join(', ');
  const grouped =
    groupBy === 'domain' && !byPrompt
      ? `SELECT t.locale, t.domain, sum(t.citations)::float8 AS citations,
        sum(t.answers_citing)::float8 AS answers_citing,
           sum(t.retrievals)::float8 AS retrievals, sum(t.retrieved_not_cited)::float8 AS retrieved_not_cited
         FROM ai_source_totals t WHERE ${workspace('t')} AND t.project_id = ${project} AND ${runFilterSql('t', param)}
         GROUP BY t.locale, t.domain`
      : `SELECT locale, ${keyColumns.map((column) => `coalesce(c.${column}, r.${column}) AS ${column}`).join(', ')},
           coalesce(c.citations, 0) AS citations, coalesce(c.answers_citing, 0) AS answers_citing,
             coalesce(r.retrievals, 0) AS retrievals, coalesce(r.retrieved_not_cited, 0) AS retrieved_not_cited
         FROM (SELECT c.locale, ${key}, count(*)::float8 AS citations,
         count(DISTINCT c.answer_id)::float8 AS answers_citing
               FROM ai_citations c WHERE ${workspace('c')} AND c.project_id = ${project}
               AND ${byPrompt ? `c.prompt_id = ${prompt}` : `${prompt}::text IS NULL`}
               AND ${runFilterSql('c', param)}
               GROUP BY c.locale, ${key}) c
         FULL JOIN (${retrievalsSql(workspace, param, groupBy, byPrompt)}) r USING (locale, ${key})`;
  return `WITH runs AS (${runs}), grouped AS (${grouped}),
    -- A share is of all the locale's citations, also where owned=true keeps only the project's own rows.
    shared AS (SELECT g.*, sum(g.citations) OVER (PARTITION BY g.locale) AS locale_citations FROM grouped g),
    ranked AS (
      SELECT g.*, row_number() OVER (PARTITION BY g.locale ORDER BY g.citations DESC,
      ${inCodePointOrder('g')}) AS rank, count(*) OVER ()::int AS total
      FROM shared g WHERE ${param('owned')}::text[] IS NULL OR g.domain = ANY(${param('owned')}::text[]))
    SELECT r.locale, r.domain${groupBy === 'url' ? ', r.url' : ''}, r.citations, r.answers_citing AS "answersCiting",
      r.retrievals, r.retrieved_not_cited AS "retrievedNotCited",
      r.locale_citations AS "localeCitations", coalesce(runs.n, 0) AS "localeRuns", r.total
    FROM ranked r LEFT JOIN runs ON runs.locale = r.locale
    WHERE ${param('perLocale')}::int IS NULL OR r.rank <= ${param('perLocale')}
    ORDER BY r.locale COLLATE "C", r.citations DESC, ${inCodePointOrder('r')}`;
}

// Unnamed: each is planned for its values (a prompt's citations or a project's totals).
const STATEMENTS: Record<`${SourceGrouping}|${boolean}`, TenantStatement<SourceSumsRow, SourceParams>> = {
  'domain|false': tenantStatement(null, (workspace, param) => sourcesSql(workspace, param, 'domain', false)),
  'domain|true': tenantStatement(null, (workspace, param) => sourcesSql(workspace, param, 'domain', true)),
  'url|false': tenantStatement(null, (workspace, param) => sourcesSql(workspace, param, 'url', false)),
  'url|true': tenantStatement(null, (workspace, param) => sourcesSql(workspace, param, 'url', true)),
};

export const sourcesStatement = (filter: SourceFilter) => STATEMENTS[`${filter.groupBy}|${filter.promptId !== null}`];
export const sourcesValues = (
  project: { id: string; domains: string[] },
  filter: SourceFilter,
  perLocale: number | null,
): SourceParams => ({
  projectId: project.id,
  ...runFilterValues(filter),
  promptId: filter.promptId,
  perLocale,
  owned: filter.owned ? ownedSpellings(project.domains) : null,
});

/** The `perLocale` most cited sources of each locale, and how many rows there are before that cap. */
export async function querySources(
  scope: WorkspaceScope,
  project: { id: string; domains: string[] },
  filter: SourceFilter,
  perLocale: number,
): Promise<{ rows: SourceSums[]; total: number }> {
  const rows = await scope.rows(sourcesStatement(filter), sourcesValues(project, filter, perLocale));
  return { rows, total: rows[0]?.total ?? 0 };
}
