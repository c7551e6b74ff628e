// bench:answers' searches and pages read (issue 42): 4 searches and 6 pages read per run over the
// 1 M-answer set, generated in SQL as ingestion would store them, and the hand-written SQL the
// search-queries and opportunities endpoints are measured against.
import type pg from 'pg';

/**
 * The answer's `search_queries` JSON (an expression over the prompt `p`): 4 distinct queries from a
 * vocabulary shared across prompts, so queries recur and several prompts run the same one.
 */
export const SEARCH_QUERIES_JSON = `(SELECT jsonb_agg('best crm for use case ' || ((substring(p.text from 'case (\\d+)')::int + k * 57) % 460) || CASE WHEN random() < 0.3 THEN ' 2026' ELSE '' END ORDER BY k)
  FROM generate_series(1, 4) AS k)`;

/**
 * The answer's `retrieved` JSON (an expression over its citations `c.citations` and roll `r.roll`):
 * 6 pages read in order, its cited pages first (marked cited), then pages of the usual domains it
 * did not cite. A run may read the same URL twice, as engines do; the JSON keeps both reads.
 */
export const retrievedJson = (domains: readonly string[]) => `(SELECT jsonb_agg(jsonb_build_object('url', page.url, 'domain', page.domain, 'title', NULL, 'cited', page.cited) ORDER BY k)
  FROM generate_series(1, 6) AS k,
    LATERAL (SELECT (ARRAY[${domains.map((domain) => `'${domain}'`).join(',')}])[1 + floor(power(random(), 2) * ${domains.length})::int + 0 * k] AS domain) d,
    LATERAL (SELECT CASE WHEN k <= jsonb_array_length(c.citations) THEN c.citations->(k - 1)->>'url' ELSE 'https://www.' || d.domain || '/read/' || (k * 7 + (r.roll * 1000)::int) % 40 END AS url,
                    CASE WHEN k <= jsonb_array_length(c.citations) THEN c.citations->(k - 1)->>'domain' ELSE d.domain END AS domain,
                    k <= jsonb_array_length(c.citations) AS cited) page)`;

/**
 * The rows aggregation reads, derived from the answers' JSON as ingestion derives them: one per run
 * with its distinct query keys (4 short keys: one part); one per run and distinct URL read, at the position first read. The per-scan
 * source totals are written from the citations and those pages, with the brand and
 * competitor-only columns, as ingestion writes them.
 */
export async function generateSearchesAndReads(pool: pg.Pool, projectId: string): Promise<void> {
  await pool.query(
    `INSERT INTO ai_search_query_sets (answer_id, part, workspace_id, project_id, prompt_id, date, model, locale, brand_visible, queries)
     SELECT a.id, 0, a.workspace_id, a.project_id, a.prompt_id, a.date, a.model, a.locale, a.brand_mentions > 0, k.queries
     FROM ai_answers a, LATERAL (SELECT array_agg(DISTINCT lower(btrim(q)) COLLATE "C" ORDER BY lower(btrim(q)) COLLATE "C") AS queries FROM jsonb_array_elements_text(a.search_queries) AS q) k
     WHERE a.project_id = $1 AND k.queries IS NOT NULL`,
    [projectId],
  );
  await pool.query(
    `INSERT INTO ai_retrievals (answer_id, position, workspace_id, project_id, prompt_id, date, model, locale, url, domain, cited)
     SELECT DISTINCT ON (a.id, e.page->>'url') a.id, e.k, a.workspace_id, a.project_id, a.prompt_id, a.date, a.model, a.locale, e.page->>'url', e.page->>'domain', (e.page->>'cited')::boolean
     FROM ai_answers a, jsonb_array_elements(a.retrieved) WITH ORDINALITY AS e(page, k)
     WHERE a.project_id = $1
     ORDER BY a.id, e.page->>'url', e.k`,
    [projectId],
  );
  await pool.query(
    `INSERT INTO ai_source_totals (scan_id, domain, workspace_id, project_id, date, model, locale, citations, answers_citing, retrievals, retrieved_not_cited, brand_answers, gap_citations, gap_answers, gap_competitors)
     SELECT a.scan_id, x.domain, a.workspace_id, a.project_id, a.date, a.model, a.locale,
       sum(x.citations), count(*) FILTER (WHERE x.citations > 0), count(*) FILTER (WHERE x.read), count(*) FILTER (WHERE x.read AND x.citations = 0),
       count(*) FILTER (WHERE x.citations > 0 AND a.brand_mentions > 0),
       coalesce(sum(x.citations) FILTER (WHERE a.brand_mentions = 0), 0), count(*) FILTER (WHERE x.citations > 0 AND a.brand_mentions = 0),
       CASE WHEN count(*) FILTER (WHERE x.citations > 0 AND a.brand_mentions = 0) > 0 THEN ARRAY['Globex'] ELSE '{}' END
     FROM (SELECT answer_id, domain, sum(c)::int AS citations, bool_or(r) AS read
           FROM (SELECT answer_id, domain, 1 AS c, false AS r FROM ai_citations WHERE project_id = $1
                 UNION ALL SELECT answer_id, domain, 0, true FROM ai_retrievals WHERE project_id = $1) u
           GROUP BY answer_id, domain) x
     JOIN ai_answers a ON a.id = x.answer_id
     GROUP BY a.scan_id, x.domain, a.workspace_id, a.project_id, a.date, a.model, a.locale`,
    [projectId],
  );
}

/** The plain way: expand the range's query keys, group them with a distinct count, divide, order. */
export async function searchQueriesBaseline(pool: pg.Pool, projectId: string, from: string, to: string): Promise<string> {
  const { rows } = await pool.query(
    `SELECT locale, query, count(*)::int AS runs, count(DISTINCT prompt_id)::int AS "promptCount", (count(*) FILTER (WHERE brand_visible))::int AS "visibilityCount"
     FROM ai_search_query_sets, unnest(queries) AS query WHERE project_id = $1 AND date BETWEEN $2 AND $3 GROUP BY locale, query ORDER BY locale, runs DESC, query COLLATE "C"`,
    [projectId, from, to],
  );
  return JSON.stringify(rows.map((row) => ({ ...row, visibility: row.visibilityCount / row.runs })));
}

/** The plain way over the answers, citations and pages read themselves (no per-scan totals). */
export async function opportunitiesBaseline(pool: pg.Pool, projectId: string, ownedDomains: readonly string[], from: string, to: string): Promise<string> {
  const [prompts, sources, pages] = await Promise.all([
    pool.query(
      `SELECT a.locale, a.prompt_id, count(*) AS runs, count(*) FILTER (WHERE a.brand_mentions > 0) AS brand,
         max(c.visible) AS best
       FROM ai_answers a LEFT JOIN LATERAL (
         SELECT count(*) AS visible FROM jsonb_array_elements(a.competitors) e WHERE (e->>'mentions')::int > 0) c ON true
       WHERE a.project_id = $1 AND a.date BETWEEN $2 AND $3 GROUP BY a.locale, a.prompt_id`,
      [projectId, from, to],
    ),
    pool.query(
      `SELECT c.locale, c.domain, count(*) FILTER (WHERE a.brand_mentions = 0) AS citations
       FROM ai_citations c JOIN ai_answers a ON a.id = c.answer_id
       WHERE c.project_id = $1 AND c.date BETWEEN $2 AND $3 GROUP BY c.locale, c.domain HAVING count(*) FILTER (WHERE a.brand_mentions > 0) = 0`,
      [projectId, from, to],
    ),
    pool.query(
      `SELECT locale, url, count(*) AS retrievals, count(*) FILTER (WHERE NOT cited) AS not_cited
       FROM ai_retrievals WHERE project_id = $1 AND domain = ANY($4) AND date BETWEEN $2 AND $3 GROUP BY locale, url HAVING count(*) FILTER (WHERE NOT cited) > 0
       ORDER BY locale, not_cited DESC, url COLLATE "C"`,
      [projectId, from, to, ownedDomains],
    ),
  ]);
  return JSON.stringify({ prompts: prompts.rows.length, sources: sources.rows, pages: pages.rows });
}
