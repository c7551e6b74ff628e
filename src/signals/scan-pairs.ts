// Each scan with the previous scan (by date) of its project, model and locale, as the signal
// rules compare them: at ingestion (the scans just stored) and in a rule preview (a project's
// scans over a range). One SELECT, built here for both.
import { COUNTER_FIELDS, ownedSpellings } from '../ai-visibility/index.js';
import { COUNTER_COLUMNS } from '../ai-visibility/index.js';
import type { ScanForRules } from './rules.js';
import { sqlStatement } from '../db/sql-runner.js';
import { tenantStatement } from '../db/tenant-sql.js';

const counters = (alias: string, prefix: string) =>
  COUNTER_FIELDS.map((field) => `${alias}.${COUNTER_COLUMNS[field]} AS "${prefix}${field}"`).join(', ');

// A scan's citations per domain ({ domain: citations }), counted as owned in JavaScript against the
// project's domains as they are now, in every spelling (a project saved before one spelling was
// chosen may list a Unicode domain; rows hold the ASCII one).
const citationsByDomain = (alias: string) => `(SELECT coalesce(jsonb_object_agg(t.domain, t.citations), '{}'::jsonb)
  FROM ai_source_totals t WHERE t.scan_id = ${alias}.id AND t.citations > 0)`;

const ownedCitationCount = (byDomain: Record<string, number>, owned: ReadonlySet<string>) =>
  Object.entries(byDomain).reduce((sum, [domain, citations]) => sum + (owned.has(domain) ? citations : 0), 0);

// Each run of a scan: [prompt id, text, brand named, competitors named] (competitor_only_prompt).
const promptsOf = (alias: string) => `(SELECT coalesce(jsonb_agg(jsonb_build_array(a.prompt_id, pr.text,
    a.brand_mentions > 0, (SELECT coalesce(jsonb_agg(e->>'name'), '[]'::jsonb)
      FROM jsonb_array_elements(a.competitors) e WHERE (e->>'mentions')::int > 0))), '[]'::jsonb)
  FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id WHERE a.scan_id = ${alias}.id)`;

export interface PairRow {
  [column: string]: unknown;
}

function scanFrom(row: PairRow, prefix: string, id: string, owned: ReadonlySet<string>): ScanForRules {
  return {
    id,
    ...(Object.fromEntries(
      COUNTER_FIELDS.map((field) => [field, row[`${prefix}${field}`] as number]),
    ) as unknown as Omit<ScanForRules, 'id' | 'competitors'>),
    competitors: (row[`${prefix}competitors`] as ScanForRules['competitors']) ?? [],
    citationCount: Number(row[`${prefix}citation_count`]),
    ownedCitationCount: ownedCitationCount(row[`${prefix}citations_by_domain`] as Record<string, number>, owned),
    prompts: ((row[`${prefix}prompts`] as [string, string, boolean, string[]][] | undefined) ?? []).map(
      ([promptId, prompt, brandVisible, competitorsVisible]) => ({
        promptId,
        prompt,
        brandVisible,
        competitorsVisible,
      }),
    ),
  };
}

/** A row's two scans as the rules compare them, the project's own domains spelled out once for both. */
export function scanPairOf(row: PairRow): { previous: ScanForRules; current: ScanForRules } {
  const owned = new Set(ownedSpellings(row.project_domains as string[]));
  return {
    previous: scanFrom(row, 'previous_', row.previous_id as string, owned),
    current: scanFrom(row, 'current_', row.id as string, owned),
  };
}

// The pairs of the scans `where` selects (alias `s`), each row carrying both sides' counters.
const pairsWhere = (where: string) => `SELECT s.id, s.workspace_id, s.project_id, to_char(s.date, 'YYYY-MM-DD') AS date,
       s.model, s.locale, project.domains AS project_domains,
       ${counters('s', 'current_')}, s.competitors AS current_competitors,
       s.citation_count AS current_citation_count, ${citationsByDomain('s')} AS current_citations_by_domain,
       ${promptsOf('s')} AS current_prompts,
       p.id AS previous_id, ${counters('p', 'previous_')}, p.competitors AS previous_competitors,
       p.citation_count AS previous_citation_count, ${citationsByDomain('p')} AS previous_citations_by_domain,
       ${promptsOf('p')} AS previous_prompts
  FROM scans s
  JOIN ai_projects project ON project.id = s.project_id
  JOIN LATERAL (
    SELECT * FROM scans p
    WHERE p.project_id = s.project_id AND p.model = s.model AND p.locale = s.locale AND p.date < s.date
    ORDER BY p.date DESC LIMIT 1
  ) p ON true
  WHERE ${where}`;

/** The pairs of scans just stored, at ingestion (inside its transaction, any workspace's scans by id). */
export const SCAN_PAIRS_OF = sqlStatement<PairRow, { scanIds: readonly string[] }>('signals.scan-pairs-of', (param) =>
  pairsWhere(`s.id = ANY(${param('scanIds')}::text[])`),
);

/** The pairs of one of the workspace's projects over a range of dates, newest first (a rule preview). */
export const SCAN_PAIRS_IN_RANGE = tenantStatement<PairRow, { projectId: string; from: string; to: string }>(
  null,
  (workspace, param) =>
    `${pairsWhere(
      `${workspace('s')} AND s.project_id = ${param('projectId')}
        AND s.date BETWEEN ${param('from')}::date AND ${param('to')}::date`,
    )} ORDER BY s.date DESC, s.model, s.locale`,
);
