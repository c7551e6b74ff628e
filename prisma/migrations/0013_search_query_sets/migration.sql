-- The search-queries list read one row per run and query: 1 M rows for 90 days of the bench set,
-- whose index-only scan alone (392 ms) was over the list's 150 ms target. A run's distinct query
-- keys become one row (its key set): 4× fewer rows to read, and runs of a prompt with the same
-- set are counted once before the set is expanded (5 520 (locale, prompt, query) groups came
-- out of 993 600 rows). Ingestion writes one row per run instead of one per query.
--
-- A btree index entry holds at most 2 704 bytes and the covering index carries the keys, so a
-- run's keys, in code-point order, go into parts: a key's part is ⌊(bytes of the keys before it,
-- 8 more each) / 512⌋ (retrieval.ts queryKeyParts, the same rule). A key is at most 1 500 bytes,
-- so a part stays under ~2 100 bytes with the row's other columns. Every key is in exactly one
-- part of its run, so counting runs per key over parts stays exact.
CREATE TABLE "ai_search_query_sets" (
    "answer_id" TEXT NOT NULL,
    "part" INTEGER NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "prompt_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "brand_visible" BOOLEAN NOT NULL,
    "queries" TEXT[] NOT NULL,

    CONSTRAINT "ai_search_query_sets_pkey" PRIMARY KEY ("answer_id", "part")
);
ALTER TABLE "ai_search_query_sets" ADD CONSTRAINT "ai_search_query_sets_answer_id_fkey" FOREIGN KEY ("answer_id") REFERENCES "ai_answers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "ai_search_query_sets" (answer_id, part, workspace_id, project_id, prompt_id, date, model, locale, brand_visible, queries)
SELECT answer_id, part, workspace_id, project_id, prompt_id, date, model, locale, brand_visible, array_agg(query ORDER BY query COLLATE "C")
FROM (
    SELECT q.*, (coalesce(sum(octet_length(q.query) + 8) OVER (PARTITION BY q.answer_id ORDER BY q.query COLLATE "C" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) / 512)::int AS part
    FROM "ai_search_queries" q
) keyed
GROUP BY answer_id, part, workspace_id, project_id, prompt_id, date, model, locale, brand_visible;

DROP TABLE "ai_search_queries";

-- Covering, with workspace_id as every tenant statement filters on it (as migration 0012).
CREATE INDEX "ai_search_query_sets_project_id_date_idx" ON "ai_search_query_sets"("project_id", "date") INCLUDE ("workspace_id", "model", "locale", "prompt_id", "brand_visible", "queries");

-- Without it the planner takes every range's sets as distinct (94 550 groups estimated for the
-- bench set's 10 997) and sorts 248 400 rows to disk instead of hashing them (2× slower).
CREATE STATISTICS "ai_search_query_sets_groups" (ndistinct) ON "locale", "prompt_id", "queries" FROM "ai_search_query_sets";
ANALYZE "ai_search_query_sets";
