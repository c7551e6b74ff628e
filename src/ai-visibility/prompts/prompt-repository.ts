// A project's tracked prompts, oldest first, and each prompt's metric totals per locale pooled
// over its runs in a range — the same counters, rates, byModel and competitors as the metrics
// endpoint's totals, summed from the answers instead of the scans.
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { groupByParent, inAskedOrder } from '../../db/per-parent.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import type { ParamOf } from '../../db/named-parameters.js';
import {
  localeTotalsOf,
  type CompetitorTotalsRow,
  type LocaleTotals,
  type ModelCountersRow,
} from '../metrics/metrics.js';
import { runFilterSql, runFilterValues, type RunFilter, type RunFilterParams } from '../common/run-filter.js';

export interface PromptRow {
  id: string;
  projectId: string;
  text: string;
  topic: string | null;
  tags: string[];
  createdAt: Date;
  archivedAt: Date | null;
}

export interface PromptFilter {
  topic: string | null;
  tag: string | null;
  includeArchived: boolean;
}

const COLUMNS =
  'id, project_id AS "projectId", text, topic, tags, created_at AS "createdAt", archived_at AS "archivedAt"';
type MatchParams = { projectId: string; topic: string | null; tag: string | null; includeArchived: boolean };
const matches = (param: ParamOf<MatchParams>) =>
  `project_id = ${param('projectId')} AND (${param('topic')}::text IS NULL OR topic = ${param('topic')}) ` +
  `AND (${param('tag')}::text IS NULL OR ${param('tag')} = ANY(tags)) ` +
  `AND (${param('includeArchived')}::boolean OR archived_at IS NULL)`;

// A keyset page, oldest first: `take` rows after the last row's created_at and id (null from the start).
const LIST = tenantStatement<
  PromptRow,
  MatchParams & { take: number; afterCreatedAt: string | null; afterId: string | null }
>(
  'prompts.list',
  (workspace, param) => `SELECT ${COLUMNS} FROM ai_prompts WHERE ${workspace()} AND ${matches(param)}
    AND (${param('afterCreatedAt')}::timestamptz IS NULL
    OR (created_at, id) > (${param('afterCreatedAt')}::timestamptz, ${param('afterId')}::text))
    ORDER BY created_at, id LIMIT ${param('take')}`,
);
const COUNT = tenantStatement<{ n: number }, MatchParams>(
  'prompts.count',
  (workspace, param) => `SELECT count(*)::int AS n FROM ai_prompts WHERE ${workspace()} AND ${matches(param)}`,
);
const BY_IDS = tenantStatement<PromptRow, { ids: readonly string[] }>(
  'prompts.by-ids',
  (workspace, param) => `SELECT ${COLUMNS} FROM ai_prompts WHERE ${workspace()} AND id = ANY(${param('ids')}::text[])`,
);
type NamesParams = { projectId: string; take: number };
const TOPICS = tenantStatement<{ topic: string; prompts: number }, NamesParams>(
  'prompts.topics',
  (workspace, param) =>
    `SELECT topic, count(*)::int AS prompts FROM ai_prompts
    WHERE ${workspace()} AND project_id = ${param('projectId')} AND topic IS NOT NULL AND archived_at IS NULL
    GROUP BY topic ORDER BY topic LIMIT ${param('take')}`,
);
const TAGS = tenantStatement<{ tag: string; prompts: number }, NamesParams>(
  'prompts.tags',
  (workspace, param) =>
    `SELECT tag, count(*)::int AS prompts FROM ai_prompts, unnest(tags) AS tag
    WHERE ${workspace()} AND project_id = ${param('projectId')} AND archived_at IS NULL
    GROUP BY tag ORDER BY tag LIMIT ${param('take')}`,
);

// The metric contract's counters over answers: a run "mentions the brand" when brandMentions > 0.
const ANSWER_COUNTERS = `count(*)::float8 AS "totalRuns",
  count(*) FILTER (WHERE a.brand_mentions > 0)::float8 AS "visibilityCount",
  sum(a.brand_mentions)::float8 AS "mentionCount", sum(a.total_mentions)::float8 AS "totalMentionCount",
  count(a.position)::float8 AS "positionedCount", coalesce(sum(a.position), 0)::float8 AS "positionSum",
  count(*) FILTER (WHERE a.sentiment = 'positive')::float8 AS "positiveCount",
  count(*) FILTER (WHERE a.sentiment = 'neutral')::float8 AS "neutralCount",
  count(*) FILTER (WHERE a.sentiment = 'negative')::float8 AS "negativeCount"`;

type TotalsParams = RunFilterParams & { promptIds: readonly string[] };
const TOTALS = tenantStatement<ModelCountersRow & { parentId: string }, TotalsParams>(
  null,
  (
    workspace,
    param,
  ) => `SELECT a.prompt_id AS "parentId", a.locale, a.model, count(*)::int AS row_count, ${ANSWER_COUNTERS}
    FROM ai_answers a WHERE ${workspace('a')} AND a.prompt_id = ANY(${param('promptIds')}::text[])
    AND ${runFilterSql('a', param)}
    GROUP BY a.prompt_id, a.locale, a.model ORDER BY a.prompt_id, a.locale, a.model`,
);
// A competitor named in a run: counted like the brand, over the runs and mentions of the runs that name it.
// The runs and mentions of the prompt's runs in the locale, beside each competitor (the run filter filters b too).
const RUNS_OF_LOCALE = (sum: string, param: ParamOf<RunFilterParams>) =>
  `(SELECT ${sum} FROM ai_answers b WHERE b.workspace_id = a.workspace_id AND b.prompt_id = a.prompt_id
      AND b.locale = a.locale AND ${runFilterSql('b', param)})::float8`;
const COMPETITOR_TOTALS = tenantStatement<CompetitorTotalsRow & { parentId: string }, TotalsParams>(
  null,
  (workspace, param) => `SELECT a.prompt_id AS "parentId", a.locale, c.name,
     count(*) FILTER (WHERE c.mentions > 0)::float8 AS "visibilityCount", sum(c.mentions)::float8 AS "mentionCount",
     count(c.position)::float8 AS "positionedCount", coalesce(sum(c.position), 0)::float8 AS "positionSum",
     ${RUNS_OF_LOCALE('count(*)', param)} AS "totalRuns",
     ${RUNS_OF_LOCALE('coalesce(sum(b.total_mentions), 0)', param)} AS "totalMentionCount"
   FROM ai_answers a CROSS JOIN LATERAL jsonb_to_recordset(a.competitors) AS c(name text, mentions int, position int)
   WHERE ${workspace('a')} AND a.prompt_id = ANY(${param('promptIds')}::text[]) AND a.competitors <> '[]'::jsonb
     AND ${runFilterSql('a', param)}
   GROUP BY a.workspace_id, a.prompt_id, a.locale, c.name ORDER BY a.prompt_id, a.locale, c.name`,
);

const matchValues = (projectId: string, filter: PromptFilter): MatchParams => ({
  projectId,
  topic: filter.topic,
  tag: filter.tag,
  includeArchived: filter.includeArchived,
});

export function promptRepository(scope: WorkspaceScope) {
  return {
    /** Up to `take` prompts after `after` (created_at as written, and id), oldest first. */
    list: (projectId: string, filter: PromptFilter, after: { createdAt: string; id: string } | null, take: number) =>
      scope.rows(LIST, {
        ...matchValues(projectId, filter),
        take,
        afterCreatedAt: after?.createdAt ?? null,
        afterId: after?.id ?? null,
      }),
    count: async (projectId: string, filter: PromptFilter) =>
      (await scope.rows(COUNT, matchValues(projectId, filter)))[0]!.n,
    byIds: async (ids: readonly string[]): Promise<(PromptRow | null)[]> =>
      inAskedOrder(ids, await scope.rows(BY_IDS, { ids })),
    /** The first `take` topics (and tags below), alphabetically. */
    topics: (projectId: string, take: number) => scope.rows(TOPICS, { projectId, take }),
    tags: (projectId: string, take: number) => scope.rows(TAGS, { projectId, take }),
    /** Each prompt's totals per locale over the filtered runs, in two statements whatever their number. */
    totals: async (promptIds: readonly string[], filter: RunFilter): Promise<LocaleTotals[][]> => {
      const values = { promptIds, ...runFilterValues(filter) };
      const [grouped, competitors] = await Promise.all([
        scope.rows(TOTALS, values),
        scope.rows(COMPETITOR_TOTALS, values),
      ]);
      const competitorsOf = groupByParent(promptIds, competitors);
      return groupByParent(promptIds, grouped).map((rows, index) => localeTotalsOf(rows, competitorsOf[index]!).totals);
    },
  };
}
