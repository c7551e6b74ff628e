-- Issue 42's reads and writes at a million answers, with fewer rows.
--
-- 1. Search queries. Migration 0013 kept one row per run with its query keys (248 400 rows and
--    ~280-byte index entries for 90 days of the bench set); grouping them by prompt, locale and
--    key array was most of the list's time. A run's key set now lives once per project in a
--    dictionary, under an id that is a digest of the keys, and the answer carries that id: the
--    range is read from a narrow partial index of the answers and grouped on a 16-byte uuid, and
--    ingestion writes no row per run for its searches (only the sets it has not seen).
--
--    Set id: the first 16 bytes of SHA-256 over the keys in code-point order, each written as
--    "<bytes>:<key>" (retrieval.ts querySetId computes the same). Keys are trimmed and
--    lower-cased and never hold NUL (PostgreSQL text cannot).
CREATE TABLE "ai_query_sets" (
    "project_id" TEXT NOT NULL,
    "id" UUID NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "queries" TEXT[] NOT NULL,

    CONSTRAINT "ai_query_sets_pkey" PRIMARY KEY ("project_id", "id")
);
ALTER TABLE "ai_query_sets" ADD CONSTRAINT "ai_query_sets_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "ai_projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

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

ALTER TABLE "ai_answers" ADD COLUMN "query_set" UUID, ADD COLUMN "pages_read" JSONB NOT NULL DEFAULT '[]';

-- Existing runs: their sets and pages from the rows they had.
CREATE TEMPORARY TABLE "run_query_sets" AS
SELECT s.answer_id, min(s.workspace_id) AS workspace_id, min(s.project_id) AS project_id,
    array_agg(q ORDER BY q COLLATE "C") AS queries,
    encode(substring(sha256(convert_to(string_agg(octet_length(q)::text || ':' || q, '' ORDER BY q COLLATE "C"), 'UTF8')) FROM 1 FOR 16), 'hex')::uuid AS id
FROM "ai_search_query_sets" s CROSS JOIN LATERAL unnest(s.queries) AS q
GROUP BY s.answer_id;

INSERT INTO "ai_query_sets" (project_id, id, workspace_id, queries)
SELECT DISTINCT ON (project_id, id) project_id, id, workspace_id, queries FROM "run_query_sets" ORDER BY project_id, id;

CREATE TEMPORARY TABLE "run_pages_read" AS
SELECT answer_id, jsonb_agg(jsonb_build_object('url', url, 'domain', domain, 'cited', cited) ORDER BY position) AS pages
FROM "ai_retrievals" GROUP BY answer_id;

UPDATE "ai_answers" a SET query_set = k.id, pages_read = coalesce(p.pages, '[]')
FROM "ai_answers" x LEFT JOIN "run_query_sets" k ON k.answer_id = x.id LEFT JOIN "run_pages_read" p ON p.answer_id = x.id
WHERE a.id = x.id AND (k.id IS NOT NULL OR p.pages IS NOT NULL);

INSERT INTO "ai_page_totals" (scan_id, url, workspace_id, project_id, date, model, locale, domain, retrievals, retrieved_not_cited)
SELECT a.scan_id, r.url, a.workspace_id, a.project_id, a.date, a.model, a.locale, min(r.domain), count(*)::int, (count(*) FILTER (WHERE NOT r.cited))::int
FROM "ai_retrievals" r JOIN "ai_answers" a ON a.id = r.answer_id
GROUP BY a.scan_id, r.url, a.workspace_id, a.project_id, a.date, a.model, a.locale;

DROP TABLE "run_query_sets", "run_pages_read", "ai_search_query_sets", "ai_retrievals";

-- The search-queries list: the range's runs that searched, covered (workspace_id as every tenant
-- statement filters on it, migration 0012).
CREATE INDEX "ai_answers_query_sets_idx" ON "ai_answers"("project_id", "date") INCLUDE ("workspace_id", "model", "locale", "prompt_id", "brand_mentions", "query_set") WHERE "query_set" IS NOT NULL;
-- Without it the planner takes each range's (prompt, locale, set) groups as all distinct and
-- sorts instead of hashing (see migration 0013).
CREATE STATISTICS "ai_answers_query_set_groups" (ndistinct) ON "locale", "prompt_id", "query_set" FROM "ai_answers";

-- Owned-page opportunities (one domain list) and sources by URL (every domain), covered.
CREATE INDEX "ai_page_totals_project_id_domain_date_idx" ON "ai_page_totals"("project_id", "domain", "date") INCLUDE ("workspace_id", "model", "locale", "url", "retrievals", "retrieved_not_cited");
CREATE INDEX "ai_page_totals_project_id_date_idx" ON "ai_page_totals"("project_id", "date") INCLUDE ("workspace_id", "model", "locale", "domain", "url", "retrievals", "retrieved_not_cited");

ANALYZE "ai_answers", "ai_page_totals", "ai_query_sets";
