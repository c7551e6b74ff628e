// Citation gaps: the sites the assistants cite in answers that name a competitor but not the
// brand — where a marketer's content or outreach is missing. Per locale, most such answers first.
import type { WorkspaceScope } from '../../db/workspace-scope.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import { runFilterSql, runFilterValues, type RunFilter, type RunFilterParams } from '../common/run-filter.js';

export interface CitationGapRow {
  locale: string;
  domain: string;
  /** Answers naming a competitor but not the brand that cite the domain. */
  answers: number;
  citations: number;
  /** The competitors those answers name, alphabetically. */
  competitorsNamed: string[];
}

// perLocale: the rows per locale.
const GAPS = tenantStatement<CitationGapRow, RunFilterParams & { projectId: string; perLocale: number }>(
  null,
  (workspace, param) => `SELECT locale, domain, answers, citations, competitors_named AS "competitorsNamed" FROM (
      SELECT c.locale, c.domain, count(DISTINCT c.answer_id)::int AS answers, count(*)::int AS citations,
        (SELECT array_agg(DISTINCT e->>'name' ORDER BY e->>'name')
          FROM ai_answers g, jsonb_array_elements(g.competitors) e
          WHERE g.id = ANY(array_agg(c.answer_id)) AND (e->>'mentions')::int > 0) AS competitors_named,
        row_number() OVER (PARTITION BY c.locale ORDER BY count(DISTINCT c.answer_id) DESC, c.domain) AS rank
      FROM ai_citations c JOIN ai_answers a ON a.id = c.answer_id
      WHERE ${workspace('c')} AND c.project_id = ${param('projectId')} AND ${runFilterSql('c', param)}
        AND a.brand_mentions = 0
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(a.competitors) e WHERE (e->>'mentions')::int > 0)
      GROUP BY c.locale, c.domain) gaps
    WHERE rank <= ${param('perLocale')} ORDER BY locale, answers DESC, domain`,
);

export const queryCitationGaps = (scope: WorkspaceScope, projectId: string, filter: RunFilter, perLocale: number) =>
  scope.rows(GAPS, { projectId, ...runFilterValues(filter), perLocale });
