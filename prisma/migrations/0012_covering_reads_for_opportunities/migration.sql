-- Issue 42's reads over a range (search queries, opportunities) from indexes alone. Every
-- tenant statement also filters on workspace_id, which the covering indexes of 0009/0011 left
-- out: each row in the range was then a heap fetch (measured on the 1 M-answer bench set:
-- search queries 762 ms, opportunities 2 049 ms over 90 days). Each index is replaced by the same
-- keys with workspace_id (and what else its readers need) included.
-- Prisma's schema language cannot express INCLUDE, so these live only in migrations.

-- The search-queries list: the range's query rows.
DROP INDEX "ai_search_queries_project_id_date_idx";
CREATE INDEX "ai_search_queries_project_id_date_idx" ON "ai_search_queries"("project_id", "date") INCLUDE ("workspace_id", "model", "locale", "query", "prompt_id", "brand_visible");

-- Owned-page opportunities: the range's pages read on the project's domains.
DROP INDEX "ai_retrievals_project_id_domain_date_idx";
CREATE INDEX "ai_retrievals_project_id_domain_date_idx" ON "ai_retrievals"("project_id", "domain", "date") INCLUDE ("workspace_id", "model", "locale", "url", "cited");

-- Prompt opportunities: per prompt and locale, the range's runs, those naming the brand, and
-- the competitors each names. The keyset index of the answer pages carries them, so no second
-- index is written at ingestion.
DROP INDEX "ai_answers_project_id_date_id_idx";
CREATE INDEX "ai_answers_project_id_date_id_idx" ON "ai_answers"("project_id", "date" DESC, "id" DESC) INCLUDE ("workspace_id", "prompt_id", "model", "locale", "brand_mentions", "competitors");
