// A project's tracked prompts, oldest first, and each prompt's metric totals per locale pooled
// over its runs in a range — the same counters, rates, byModel and competitors as the metrics
// endpoint's totals, summed from the answers instead of the scans.
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { groupByParent, inAskedOrder } from '../../db/per-parent.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import {
  localeTotalsOf,
  type CompetitorTotalsRow,
  type LocaleTotals,
  type ModelCountersRow,
} from '../metrics/metrics.js';
import { runFilterSql, runFilterValues, type RunFilter } from '../shared/run-filter.js';

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
const MATCHES =
  '($3::text IS NULL OR topic = $3) AND ($4::text IS NULL OR $4 = ANY(tags)) ' +
  'AND ($5::boolean OR archived_at IS NULL)';

// A keyset page, oldest first: $6 the rows, $7/$8 the last row's created_at and id (null from the start).
const LIST = tenantStatement<PromptRow>(
  'prompts.list',
  (workspace) => `SELECT ${COLUMNS} FROM ai_prompts WHERE ${workspace()} AND project_id = $2 AND ${MATCHES}
    AND ($7::timestamptz IS NULL OR (created_at, id) > ($7::timestamptz, $8::text)) ORDER BY created_at, id LIMIT $6`,
);
const COUNT = tenantStatement<{ n: number }>(
  'prompts.count',
  (workspace) => `SELECT count(*)::int AS n FROM ai_prompts WHERE ${workspace()} AND project_id = $2 AND ${MATCHES}`,
);
const BY_IDS = tenantStatement<PromptRow>(
  'prompts.by-ids',
  (workspace) => `SELECT ${COLUMNS} FROM ai_prompts WHERE ${workspace()} AND id = ANY($2::text[])`,
);
const TOPICS = tenantStatement<{ topic: string; prompts: number }>(
  'prompts.topics',
  (workspace) =>
    `SELECT topic, count(*)::int AS prompts FROM ai_prompts
    WHERE ${workspace()} AND project_id = $2 AND topic IS NOT NULL AND archived_at IS NULL
    GROUP BY topic ORDER BY topic LIMIT $3`,
);
const TAGS = tenantStatement<{ tag: string; prompts: number }>(
  'prompts.tags',
  (workspace) =>
    `SELECT tag, count(*)::int AS prompts FROM ai_prompts, unnest(tags) AS tag
    WHERE ${workspace()} AND project_id = $2 AND archived_at IS NULL GROUP BY tag ORDER BY tag LIMIT $3`,
);

// The metric contract's counters over answers: a run "mentions the brand" when brandMentions > 0.
const ANSWER_COUNTERS = `count(*)::float8 AS "totalRuns",
  count(*) FILTER (WHERE a.brand_mentions > 0)::float8 AS "visibilityCount",
  sum(a.brand_mentions)::float8 AS "mentionCount", sum(a.total_mentions)::float8 AS "totalMentionCount",
  count(a.position)::float8 AS "positionedCount", coalesce(sum(a.position), 0)::float8 AS "positionSum",
  count(*) FILTER (WHERE a.sentiment = 'positive')::float8 AS "positiveCount",
  count(*) FILTER (WHERE a.sentiment = 'neutral')::float8 AS "neutralCount",
  count(*) FILTER (WHERE a.sentiment = 'negative')::float8 AS "negativeCount"`;

// $2 prompt ids, $3..$6 the run filter.
const TOTALS = tenantStatement<ModelCountersRow & { parentId: string }>(
  null,
  (workspace) => `SELECT a.prompt_id AS "parentId", a.locale, a.model, count(*)::int AS row_count, ${ANSWER_COUNTERS}
    FROM ai_answers a WHERE ${workspace('a')} AND a.prompt_id = ANY($2::text[]) AND ${runFilterSql('a')}
    GROUP BY a.prompt_id, a.locale, a.model ORDER BY a.prompt_id, a.locale, a.model`,
);
// A competitor named in a run: counted like the brand, over the runs and mentions of the runs that name it.
// The runs and mentions of the prompt's runs in the locale, beside each competitor ($3..$6 filter b too).
const RUNS_OF_LOCALE = (sum: string) =>
  `(SELECT ${sum} FROM ai_answers b WHERE b.workspace_id = a.workspace_id AND b.prompt_id = a.prompt_id
      AND b.locale = a.locale AND ${runFilterSql('b')})::float8`;
const COMPETITOR_TOTALS = tenantStatement<CompetitorTotalsRow & { parentId: string }>(
  null,
  (workspace) => `SELECT a.prompt_id AS "parentId", a.locale, c.name,
     count(*) FILTER (WHERE c.mentions > 0)::float8 AS "visibilityCount", sum(c.mentions)::float8 AS "mentionCount",
     count(c.position)::float8 AS "positionedCount", coalesce(sum(c.position), 0)::float8 AS "positionSum",
     ${RUNS_OF_LOCALE('count(*)')} AS "totalRuns",
     ${RUNS_OF_LOCALE('coalesce(sum(b.total_mentions), 0)')} AS "totalMentionCount"
   FROM ai_answers a CROSS JOIN LATERAL jsonb_to_recordset(a.competitors) AS c(name text, mentions int, position int)
   WHERE ${workspace('a')} AND a.prompt_id = ANY($2::text[]) AND a.competitors <> '[]'::jsonb AND ${runFilterSql('a')}
   GROUP BY a.workspace_id, a.prompt_id, a.locale, c.name ORDER BY a.prompt_id, a.locale, c.name`,
);

export function promptRepository(scope: WorkspaceScope) {
  return {
    /** Up to `take` prompts after `after` (created_at as written, and id), oldest first. */
    list: (projectId: string, filter: PromptFilter, after: { createdAt: string; id: string } | null, take: number) =>
      scope.rows(LIST, [
        projectId,
        filter.topic,
        filter.tag,
        filter.includeArchived,
        take,
        after?.createdAt ?? null,
        after?.id ?? null,
      ]),
    count: async (projectId: string, filter: PromptFilter) =>
      (await scope.rows(COUNT, [projectId, filter.topic, filter.tag, filter.includeArchived]))[0]!.n,
    byIds: async (ids: readonly string[]): Promise<(PromptRow | null)[]> =>
      inAskedOrder(ids, await scope.rows(BY_IDS, [ids])),
    /** The first `take` topics (and tags below), alphabetically. */
    topics: (projectId: string, take: number) => scope.rows(TOPICS, [projectId, take]),
    tags: (projectId: string, take: number) => scope.rows(TAGS, [projectId, take]),
    /** Each prompt's totals per locale over the filtered runs, in two statements whatever their number. */
    totals: async (promptIds: readonly string[], filter: RunFilter): Promise<LocaleTotals[][]> => {
      const values = [promptIds, ...runFilterValues(filter)];
      const [grouped, competitors] = await Promise.all([
        scope.rows(TOTALS, values),
        scope.rows(COMPETITOR_TOTALS, values),
      ]);
      const competitorsOf = groupByParent(promptIds, competitors);
      return groupByParent(promptIds, grouped).map((rows, index) => localeTotalsOf(rows, competitorsOf[index]!).totals);
    },
  };
}
