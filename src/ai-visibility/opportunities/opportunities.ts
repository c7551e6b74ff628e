// The three opportunity lists' sums, per locale over a date range (model and locale filters as
// every read): prompts from the answers, sources from the per-scan source totals, the project's
// own pages from the per-scan page totals. Scoring and ranking are pure (opportunity-scores.ts).
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import { ownershipOf } from '../sources/domains.js';
import {
  pageOpportunity,
  promptOpportunity,
  rankPerLocale,
  sourceOpportunity,
  type PageOpportunity,
  type PageSums,
  type PromptGapSums,
  type PromptOpportunity,
  type SourceGapSums,
  type SourceOpportunity,
} from './opportunity-scores.js';
import { runFilterSql, runFilterValues, type RunFilter, type RunFilterParams } from '../common/run-filter.js';

export const OPPORTUNITY_KINDS = ['prompts', 'sources', 'pages'] as const;
export type OpportunityKind = (typeof OPPORTUNITY_KINDS)[number];
/**
 * What a caller's `kind` may say: one list, or `all` (the default). An explicit `all` rather than
 * "leave it out": form-based clients send the first value of an enum that declares no default.
 */
export const OPPORTUNITY_KIND_CHOICES = ['all', ...OPPORTUNITY_KINDS] as const;
export type OpportunityKindChoice = (typeof OPPORTUNITY_KIND_CHOICES)[number];

export const opportunityKindsOf = (kind: OpportunityKindChoice | null | undefined): readonly OpportunityKind[] =>
  !kind || kind === 'all' ? OPPORTUNITY_KINDS : [kind];

// Tracked prompts where some competitor was visible in more runs than the brand. The range's
// runs are counted per prompt, locale and set of competitors named (shared/string-sets.ts), from the
// narrow index that the search-queries list reads too, and each distinct set is expanded once.
type GapParams = RunFilterParams & { projectId: string };
const PROMPT_GAPS = tenantStatement<PromptGapSums, GapParams>(
  null,
  (workspace, param) => `WITH per_set AS (
      SELECT a.prompt_id, a.locale, a.competitor_set, count(*)::int AS runs,
      (count(*) FILTER (WHERE a.brand_mentions > 0))::int AS brand_visible
      FROM ai_answers a WHERE ${workspace('a')} AND a.project_id = ${param('projectId')} AND ${runFilterSql('a', param)}
      GROUP BY a.prompt_id, a.locale, a.competitor_set),
    runs AS (
      SELECT prompt_id, locale, sum(runs)::int AS runs, sum(brand_visible)::int AS brand_visible FROM per_set
      GROUP BY prompt_id, locale),
    competitors AS (
      SELECT s.prompt_id, s.locale, name, sum(s.runs)::int AS visible
      FROM per_set s JOIN ai_string_sets k ON ${workspace('k')} AND k.project_id = ${param('projectId')}
        AND k.id = s.competitor_set
      CROSS JOIN LATERAL unnest(k.members) AS name
      GROUP BY s.prompt_id, s.locale, name)
    SELECT r.locale, r.prompt_id AS "promptId", p.text AS prompt, r.runs, r.brand_visible AS "brandVisible",
      jsonb_agg(jsonb_build_object('name', c.name, 'visible', c.visible)) AS competitors
    FROM runs r
    JOIN competitors c ON c.prompt_id = r.prompt_id AND c.locale = r.locale AND c.visible > r.brand_visible
    JOIN ai_prompts p ON p.id = r.prompt_id AND p.archived_at IS NULL
    GROUP BY r.locale, r.prompt_id, p.text, r.runs, r.brand_visible`,
);

// Domains cited by runs naming a competitor and not the brand, and by no run naming the brand.
const SOURCE_GAPS = tenantStatement<SourceGapSums, GapParams>(
  null,
  (workspace, param) => `WITH gaps AS (
      SELECT t.locale, t.domain, sum(t.gap_citations)::int AS citations, sum(t.gap_answers)::int AS answers
      FROM ai_source_totals t WHERE ${workspace('t')} AND t.project_id = ${param('projectId')}
      AND ${runFilterSql('t', param)}
      GROUP BY t.locale, t.domain HAVING sum(t.brand_answers) = 0 AND sum(t.gap_answers) > 0),
    named AS (
      SELECT DISTINCT t.locale, t.domain, name
      FROM ai_source_totals t CROSS JOIN LATERAL unnest(t.gap_competitors) AS name
      WHERE ${workspace('t')} AND t.project_id = ${param('projectId')} AND ${runFilterSql('t', param)}
      AND t.gap_answers > 0)
    SELECT g.locale, g.domain, g.citations, g.answers, array_agg(n.name ORDER BY n.name COLLATE "C") AS competitors
    FROM gaps g JOIN named n ON n.locale = g.locale AND n.domain = g.domain
    GROUP BY g.locale, g.domain, g.citations, g.answers`,
);

// The project's own pages (`owned`: its domains) read in the range, from the per-scan page totals.
const OWNED_PAGES = tenantStatement<PageSums, GapParams & { owned: string[] }>(
  null,
  (workspace, param) => `SELECT t.locale, t.url, t.domain, sum(t.retrievals)::int AS retrievals,
    sum(t.retrieved_not_cited)::int AS "retrievedNotCited"
    FROM ai_page_totals t WHERE ${workspace('t')} AND t.project_id = ${param('projectId')}
    AND t.domain = ANY(${param('owned')}::text[]) AND ${runFilterSql('t', param)}
    GROUP BY t.locale, t.url, t.domain`,
);

export interface Opportunities {
  prompts: PromptOpportunity[];
  sources: SourceOpportunity[];
  pages: PageOpportunity[];
}

type ProjectForOpportunities = { id: string; domains: string[]; competitorDomains: unknown };

/** The asked kinds, each ranked per locale and cut to `perLocale`; a kind not asked is an empty list. */
export async function queryOpportunities(
  scope: WorkspaceScope,
  project: ProjectForOpportunities,
  filter: RunFilter,
  kinds: readonly OpportunityKind[],
  perLocale: number,
): Promise<Opportunities> {
  const values = { projectId: project.id, ...runFilterValues(filter) };
  const ownership = ownershipOf(project);
  const [prompts, sources, pages] = await Promise.all([
    kinds.includes('prompts') ? scope.rows(PROMPT_GAPS, values) : [],
    kinds.includes('sources') ? scope.rows(SOURCE_GAPS, values) : [],
    kinds.includes('pages') && project.domains.length
      ? scope.rows(OWNED_PAGES, { ...values, owned: [...ownership.owned] })
      : [],
  ]);
  return {
    prompts: rankPerLocale(
      prompts.map(promptOpportunity).filter((item) => item !== null),
      (item) => item.prompt,
      perLocale,
    ),
    sources: rankPerLocale(
      sources.map((sums) => sourceOpportunity(sums, ownership)),
      (item) => item.domain,
      perLocale,
    ),
    pages: rankPerLocale(
      pages.map(pageOpportunity).filter((item) => item !== null),
      (item) => item.url,
      perLocale,
    ),
  };
}
