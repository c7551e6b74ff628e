// bench:answers' searches and pages read (issue 42): 4 searches and 6 pages read per run over the
// 1 M-answer set, generated in SQL as ingestion would store them, and the hand-written SQL the
// search-queries and opportunities endpoints are measured against.
import type pg from 'pg';

/**
 * The answer's `search_queries` JSON (an expression over the prompt `p`): 4 distinct queries from a
 * vocabulary shared across prompts, so queries recur and several prompts run the same one.
 */
export const SEARCH_QUERIES_JSON = `(SELECT jsonb_agg('best crm for use case '
    || ((substring(p.text from 'case (\\d+)')::int + k * 57) % 460) || CASE WHEN random() < 0.3 THEN ' 2026' ELSE '' END
    ORDER BY k)
  FROM generate_series(1, 4) AS k)`;

/** One of the domains per row of `k`, the first ones far more often (an SQL expression). */
export const skewedDomain = (domains: readonly string[]) => {
  const literals = domains.map((domain) => `'${domain}'`).join(',');
  return `(ARRAY[${literals}])[1 + floor(power(random(), 2) * ${domains.length})::int + 0 * k]`;
};

/**
 * The answer's `retrieved` JSON (an expression over its citations `c.citations` and roll `r.roll`):
 * 6 pages read in order, its cited pages first (marked cited), then pages of the usual domains it
 * did not cite. A run may read the same URL twice, as engines do; the JSON keeps both reads.
 */
export const retrievedJson = (
  domains: readonly string[],
) => `(SELECT jsonb_agg(jsonb_build_object('url', page.url, 'domain', page.domain, 'title', NULL, 'cited', page.cited)
    ORDER BY k)
  FROM generate_series(1, 6) AS k,
    LATERAL (SELECT ${skewedDomain(domains)} AS domain) d,
    LATERAL (SELECT CASE WHEN k <= jsonb_array_length(c.citations) THEN c.citations->(k - 1)->>'url' ELSE 'https://www.' || d.domain || '/read/' || (k * 7 + (r.roll * 1000)::int) % 40 END AS url,
                    CASE WHEN k <= jsonb_array_length(c.citations) THEN c.citations->(k - 1)->>'domain'
                      ELSE d.domain END AS domain,
                    k <= jsonb_array_length(c.citations) AS cited) page)`;

/**
 * What aggregation reads, derived from the answers' JSON as ingestion derives it: each answer's
 * query-set and competitor-set ids and distinct pages read, the project's sets, the per-scan page
 * totals, and the per-scan source totals with the brand and competitor-only columns.
 */
export async function generateSearchesAndReads(pool: pg.Pool, projectId: string): Promise<void> {
  await pool.query(
    `UPDATE ai_answers a SET query_set = k.id, competitor_set = c.id, pages_read = coalesce(p.pages, '[]')
     FROM ai_answers x
       CROSS JOIN LATERAL (SELECT ${SET_ID(QUERY_KEYS('x'))} AS id) k
       CROSS JOIN LATERAL (SELECT ${SET_ID(COMPETITORS_NAMED('x'))} AS id) c
       CROSS JOIN LATERAL (SELECT jsonb_agg(jsonb_build_object('url', d.url, 'domain', d.domain, 'cited', d.cited)
         ORDER BY d.k) AS pages
         FROM (SELECT DISTINCT ON (e.page->>'url') e.page->>'url' AS url, e.page->>'domain' AS domain,
           (e.page->>'cited')::boolean AS cited, e.k
               FROM jsonb_array_elements(x.retrieved) WITH ORDINALITY AS e(page, k) ORDER BY e.page->>'url', e.k) d) p
     WHERE x.project_id = $1 AND a.id = x.id`,
    [projectId],
  );
  // The UPDATE left a dead entry per answer in each index: compact them as ingestion would have written them.
  await pool.query('REINDEX TABLE ai_answers');
  const members = `(SELECT * FROM ${QUERY_KEYS('a')} AS k WHERE s.kind = 'q' UNION ALL SELECT *
      FROM ${COMPETITORS_NAMED('a')} AS c WHERE s.kind = 'c') AS u(m)`;
  await pool.query(
    `INSERT INTO ai_string_sets (project_id, id, workspace_id, members)
     SELECT DISTINCT ON (s.id) a.project_id, s.id, a.workspace_id,
       ARRAY(SELECT m FROM ${members} ORDER BY m COLLATE "C")
     FROM ai_answers a CROSS JOIN LATERAL (VALUES (a.query_set, 'q'), (a.competitor_set, 'c')) AS s(id, kind)
     WHERE a.project_id = $1 AND s.id IS NOT NULL ORDER BY s.id`,
    [projectId],
  );
  await pool.query(
    `INSERT INTO ai_page_totals (scan_id, url, workspace_id, project_id, date, model, locale, domain, retrievals,
       retrieved_not_cited)
     SELECT a.scan_id, r.url, a.workspace_id, a.project_id, a.date, a.model, a.locale, min(r.domain), count(*),
       count(*) FILTER (WHERE NOT r.cited)
     FROM ai_answers a CROSS JOIN LATERAL jsonb_to_recordset(a.pages_read) AS r(url text, domain text, cited boolean)
     WHERE a.project_id = $1
     GROUP BY a.scan_id, r.url, a.workspace_id, a.project_id, a.date, a.model, a.locale`,
    [projectId],
  );
  await pool.query(
    `INSERT INTO ai_source_totals (scan_id, domain, workspace_id, project_id, date, model, locale, citations,
       answers_citing, retrievals, retrieved_not_cited, brand_answers, gap_citations, gap_answers, gap_competitors)
     SELECT a.scan_id, x.domain, a.workspace_id, a.project_id, a.date, a.model, a.locale,
       sum(x.citations), count(*) FILTER (WHERE x.citations > 0), count(*) FILTER (WHERE x.read),
         count(*) FILTER (WHERE x.read AND x.citations = 0),
       count(*) FILTER (WHERE x.citations > 0 AND a.brand_mentions > 0),
       coalesce(sum(x.citations) FILTER (WHERE a.brand_mentions = 0), 0),
         count(*) FILTER (WHERE x.citations > 0 AND a.brand_mentions = 0),
       CASE WHEN count(*) FILTER (WHERE x.citations > 0 AND a.brand_mentions = 0) > 0 THEN ARRAY['Globex'] ELSE '{}' END
     FROM (SELECT answer_id, domain, sum(c)::int AS citations, bool_or(r) AS read
           FROM (SELECT answer_id, domain, 1 AS c, false AS r FROM ai_citations WHERE project_id = $1
                 UNION ALL SELECT a.id, p.domain, 0, true FROM ai_answers a,
                   jsonb_to_recordset(a.pages_read) AS p(domain text) WHERE a.project_id = $1) u
           GROUP BY answer_id, domain) x
     JOIN ai_answers a ON a.id = x.answer_id
     GROUP BY a.scan_id, x.domain, a.workspace_id, a.project_id, a.date, a.model, a.locale`,
    [projectId],
  );
}

/** An answer's distinct query keys and competitors named, as a one-column relation `(m)`. */
const QUERY_KEYS = (alias: string) =>
  `(SELECT DISTINCT lower(btrim(q)) FROM jsonb_array_elements_text(${alias}.search_queries) AS q)`;
const COMPETITORS_NAMED = (alias: string) =>
  `(SELECT DISTINCT e->>'name' FROM jsonb_array_elements(${alias}.competitors) AS e WHERE (e->>'mentions')::int > 0)`;
/** A set's id in SQL (migration 0014's rule). */
const SET_ID = (
  members: string,
) => `(SELECT encode(substring(sha256(convert_to(string_agg(octet_length(m)::text || ':' || m, ''
    ORDER BY m COLLATE "C"), 'UTF8')) FROM 1 FOR 16), 'hex')::uuid
  FROM ${members} AS s(m))`;

/** The plain way: expand the range's query keys, group them with a distinct count, divide, order. */
export async function searchQueriesBaseline(
  pool: pg.Pool,
  projectId: string,
  from: string,
  to: string,
): Promise<string> {
  const { rows } = await pool.query(
    `SELECT a.locale, query, count(*)::int AS runs, count(DISTINCT a.prompt_id)::int AS "promptCount",
       (count(*) FILTER (WHERE a.brand_mentions > 0))::int AS "visibilityCount"
     FROM ai_answers a JOIN ai_string_sets k ON k.project_id = a.project_id AND k.id = a.query_set,
       unnest(k.members) AS query
     WHERE a.project_id = $1 AND a.date BETWEEN $2 AND $3 GROUP BY a.locale, query
       ORDER BY a.locale, runs DESC, query COLLATE "C"`,
    [projectId, from, to],
  );
  return JSON.stringify(rows.map((row) => ({ ...row, visibility: row.visibilityCount / row.runs })));
}

/** The plain way over the answers, citations and pages read themselves (no per-scan totals). */
export async function opportunitiesBaseline(
  pool: pg.Pool,
  projectId: string,
  ownedDomains: readonly string[],
  from: string,
  to: string,
): Promise<string> {
  const [prompts, sources, pages] = await Promise.all([
    pool.query(
      `SELECT a.locale, a.prompt_id, count(*) AS runs, count(*) FILTER (WHERE a.brand_mentions > 0) AS brand,
         max(c.visible) AS best
       FROM ai_answers a LEFT JOIN LATERAL (
         SELECT count(*) AS visible FROM jsonb_array_elements(a.competitors) e WHERE (e->>'mentions')::int > 0) c
           ON true
       WHERE a.project_id = $1 AND a.date BETWEEN $2 AND $3 GROUP BY a.locale, a.prompt_id`,
      [projectId, from, to],
    ),
    pool.query(
      `SELECT c.locale, c.domain, count(*) FILTER (WHERE a.brand_mentions = 0) AS citations
       FROM ai_citations c JOIN ai_answers a ON a.id = c.answer_id
       WHERE c.project_id = $1 AND c.date BETWEEN $2 AND $3 GROUP BY c.locale, c.domain
         HAVING count(*) FILTER (WHERE a.brand_mentions > 0) = 0`,
      [projectId, from, to],
    ),
    pool.query(
      `SELECT a.locale, r.url, count(*) AS retrievals, count(*) FILTER (WHERE NOT r.cited) AS not_cited
       FROM ai_answers a, jsonb_to_recordset(a.pages_read) AS r(url text, domain text, cited boolean)
       WHERE a.project_id = $1 AND r.domain = ANY($4) AND a.date BETWEEN $2 AND $3 GROUP BY a.locale, r.url
         HAVING count(*) FILTER (WHERE NOT r.cited) > 0
       ORDER BY a.locale, not_cited DESC, r.url COLLATE "C"`,
      [projectId, from, to, ownedDomains],
    ),
  ]);
  return JSON.stringify({ prompts: prompts.rows.length, sources: sources.rows, pages: pages.rows });
}
