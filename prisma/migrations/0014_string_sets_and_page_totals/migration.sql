-- Issue 42's reads and writes at a million answers, with fewer rows.
--
-- 1. Sets of strings a run carries: its search-query keys and the competitors it names.
--    Migration 0013 kept one row per run with its query keys (248 400 rows and ~280-byte index
--    entries for 90 days of the bench set), and the prompt opportunities grouped the answers on
--    their competitors' JSON: grouping the range's runs on arrays and JSON was most of both
--    reads' time. Each distinct set now lives once per project under an id derived from its
--    members, the answer carries the ids, and both reads group the range's runs on 16-byte
--    uuids from one narrow index, then expand each distinct set once. Ingestion writes no row per
--    run for its searches (only the sets the project has not seen).
--
--    Set id: the first 16 bytes of SHA-256 over the members in code-point order, each written as
--    "<UTF-8 bytes>:<member>", as a uuid (string-sets.ts stringSetId computes the same). Members
--    never hold NUL (PostgreSQL text cannot). A set stays when no run carries it any more.
CREATE TABLE "ai_string_sets" (
    "project_id" TEXT NOT NULL,
    "id" UUID NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "members" TEXT[] NOT NULL,

    CONSTRAINT "ai_string_sets_pkey" PRIMARY KEY ("project_id", "id")
);
ALTER TABLE "ai_string_sets" ADD CONSTRAINT "ai_string_sets_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "ai_projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- 2. Pages read. ai_retrievals kept one row per run and URL read (6 a run: most of ingestion's
--    rows). Its readers now take what they need from elsewhere:
--    - per scan and URL, runs that read it and of those runs that did not cite it
--      (ai_page_totals, as ai_source_totals is per scan and domain): sources by URL and the
--      owned-pages opportunities;
--    - per run, the distinct pages read under their normalised URL with domain and cited mark
--      (ai_answers.pages_read): sources filtered to one prompt, whose runs are few.
CREATE TABLE "ai_page_totals" (
    "scan_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "retrievals" INTEGER NOT NULL,
    "retrieved_not_cited" INTEGER NOT NULL,

    CONSTRAINT "ai_page_totals_pkey" PRIMARY KEY ("scan_id", "url")
);
ALTER TABLE "ai_page_totals" ADD CONSTRAINT "ai_page_totals_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "ai_answers" ADD COLUMN "query_set" UUID, ADD COLUMN "competitor_set" UUID, ADD COLUMN "pages_read" JSONB NOT NULL DEFAULT '[]';

-- Existing runs: their sets and pages from the rows and JSON they had.
CREATE TEMPORARY TABLE "run_sets" AS
SELECT answer_id, kind, min(workspace_id) AS workspace_id, min(project_id) AS project_id,
    array_agg(member ORDER BY member COLLATE "C") AS members,
    encode(substring(sha256(convert_to(string_agg(octet_length(member)::text || ':' || member, '' ORDER BY member COLLATE "C"), 'UTF8')) FROM 1 FOR 16), 'hex')::uuid AS id
FROM (
    SELECT s.answer_id, 'queries' AS kind, s.workspace_id, s.project_id, q AS member
    FROM "ai_search_query_sets" s CROSS JOIN LATERAL unnest(s.queries) AS q
    UNION
    SELECT a.id, 'competitors', a.workspace_id, a.project_id, e->>'name'
    FROM "ai_answers" a CROSS JOIN LATERAL jsonb_array_elements(a.competitors) AS e
    WHERE (e->>'mentions')::int > 0
) members
GROUP BY answer_id, kind;

INSERT INTO "ai_string_sets" (project_id, id, workspace_id, members)
SELECT DISTINCT ON (project_id, id) project_id, id, workspace_id, members FROM "run_sets" ORDER BY project_id, id;

CREATE TEMPORARY TABLE "run_pages_read" AS
SELECT answer_id, jsonb_agg(jsonb_build_object('url', url, 'domain', domain, 'cited', cited) ORDER BY position) AS pages
FROM "ai_retrievals" GROUP BY answer_id;

UPDATE "ai_answers" a SET query_set = q.id, competitor_set = c.id, pages_read = coalesce(p.pages, '[]')
FROM "ai_answers" x
    LEFT JOIN "run_sets" q ON q.answer_id = x.id AND q.kind = 'queries'
    LEFT JOIN "run_sets" c ON c.answer_id = x.id AND c.kind = 'competitors'
    LEFT JOIN "run_pages_read" p ON p.answer_id = x.id
WHERE a.id = x.id AND (q.id IS NOT NULL OR c.id IS NOT NULL OR p.pages IS NOT NULL);

INSERT INTO "ai_page_totals" (scan_id, url, workspace_id, project_id, date, model, locale, domain, retrievals, retrieved_not_cited)
SELECT a.scan_id, r.url, a.workspace_id, a.project_id, a.date, a.model, a.locale, min(r.domain), count(*)::int, (count(*) FILTER (WHERE NOT r.cited))::int
FROM "ai_retrievals" r JOIN "ai_answers" a ON a.id = r.answer_id
GROUP BY a.scan_id, r.url, a.workspace_id, a.project_id, a.date, a.model, a.locale;

DROP TABLE "run_sets", "run_pages_read", "ai_search_query_sets", "ai_retrievals";

-- The search-queries list and the prompt opportunities: a range's runs with their sets, covered
-- (workspace_id as every tenant statement filters on it, migration 0012). The answers' keyset
-- index no longer carries the competitors' JSON for them.
CREATE INDEX "ai_answers_sets_idx" ON "ai_answers"("project_id", "date") INCLUDE ("workspace_id", "model", "locale", "prompt_id", "brand_mentions", "query_set", "competitor_set");
DROP INDEX "ai_answers_project_id_date_id_idx";
CREATE INDEX "ai_answers_project_id_date_id_idx" ON "ai_answers"("project_id", "date" DESC, "id" DESC) INCLUDE ("workspace_id", "prompt_id", "model", "locale");
-- Without them the planner takes each range's (prompt, locale, set) groups as all distinct and
-- sorts instead of hashing (see migration 0013).
CREATE STATISTICS "ai_answers_query_set_groups" (ndistinct) ON "locale", "prompt_id", "query_set" FROM "ai_answers";
CREATE STATISTICS "ai_answers_competitor_set_groups" (ndistinct) ON "locale", "prompt_id", "competitor_set" FROM "ai_answers";

-- Owned-page opportunities (one domain list) and sources by URL (every domain), covered.
CREATE INDEX "ai_page_totals_project_id_domain_date_idx" ON "ai_page_totals"("project_id", "domain", "date") INCLUDE ("workspace_id", "model", "locale", "url", "retrievals", "retrieved_not_cited");
CREATE INDEX "ai_page_totals_project_id_date_idx" ON "ai_page_totals"("project_id", "date") INCLUDE ("workspace_id", "model", "locale", "domain", "url", "retrievals", "retrieved_not_cited");

-- The UPDATE above left a dead entry per answer in each of its indexes: rebuilt compact.
REINDEX TABLE "ai_answers";
ANALYZE "ai_answers", "ai_page_totals", "ai_string_sets";
