-- Why a brand is (not) visible: the web searches an engine ran before answering and the pages
-- it read. The answer keeps both as JSON, in the engine's order (read and exported without a
-- join, like its citations); rows below serve the aggregates.
ALTER TABLE "ai_answers"
    ADD COLUMN "search_queries" JSONB NOT NULL DEFAULT '[]',
    -- [{ url, domain, title, cited }]: cited when the normalised URL is among the citations.
    ADD COLUMN "retrieved" JSONB NOT NULL DEFAULT '[]';

-- One row per run and distinct query (trimmed, lower-cased): "runs that ran it" is a count.
-- brand_visible repeats the run's brandMentions > 0 so the covering index answers the
-- search-queries list without touching the answers.
CREATE TABLE "ai_search_queries" (
    "answer_id" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "prompt_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "brand_visible" BOOLEAN NOT NULL,

    CONSTRAINT "ai_search_queries_pkey" PRIMARY KEY ("answer_id", "query")
);
CREATE INDEX "ai_search_queries_project_id_date_idx" ON "ai_search_queries"("project_id", "date") INCLUDE ("model", "locale", "query", "prompt_id", "brand_visible");
ALTER TABLE "ai_search_queries" ADD CONSTRAINT "ai_search_queries_answer_id_fkey" FOREIGN KEY ("answer_id") REFERENCES "ai_answers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each page a run read, once per run under its normalised URL (scheme and host lower-cased, no
-- fragment; position: where the run first read it); cited: the answer cites the same normalised
-- URL. Read by domain (a project's own pages, covering: an index-only scan) and by prompt.
CREATE TABLE "ai_retrievals" (
    "answer_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "prompt_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "cited" BOOLEAN NOT NULL,

    CONSTRAINT "ai_retrievals_pkey" PRIMARY KEY ("answer_id", "position")
);
CREATE INDEX "ai_retrievals_project_id_domain_date_idx" ON "ai_retrievals"("project_id", "domain", "date") INCLUDE ("model", "locale", "url", "cited");
CREATE INDEX "ai_retrievals_prompt_id_date_idx" ON "ai_retrievals"("prompt_id", "date");
ALTER TABLE "ai_retrievals" ADD CONSTRAINT "ai_retrievals_answer_id_fkey" FOREIGN KEY ("answer_id") REFERENCES "ai_answers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Per scan and domain, beside its citations: runs that read it (and of those, runs that did not
-- cite it), and what the sources opportunities need without reading citations: runs naming the
-- brand that cite it, and citations, runs and competitors named of runs that name a competitor
-- but not the brand. A domain only read has a row with 0 citations.
ALTER TABLE "ai_source_totals"
    ADD COLUMN "retrievals" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "retrieved_not_cited" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "brand_answers" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "gap_citations" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "gap_answers" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "gap_competitors" TEXT[] NOT NULL DEFAULT '{}';

-- Existing scans: the new columns from their stored answers and citations.
WITH named AS (
    SELECT a.id, a.scan_id, a.brand_mentions > 0 AS brand,
        ARRAY(SELECT e->>'name' FROM jsonb_array_elements(a.competitors) e WHERE (e->>'mentions')::int > 0) AS competitors
    FROM "ai_answers" a
), per_domain AS (
    SELECT n.scan_id, c.domain,
        count(DISTINCT n.id) FILTER (WHERE n.brand)::int AS brand_answers,
        count(*) FILTER (WHERE NOT n.brand AND cardinality(n.competitors) > 0)::int AS gap_citations,
        count(DISTINCT n.id) FILTER (WHERE NOT n.brand AND cardinality(n.competitors) > 0)::int AS gap_answers,
        coalesce((SELECT array_agg(DISTINCT name ORDER BY name) FROM unnest(array_agg(array_to_string(n.competitors, chr(31))) FILTER (WHERE NOT n.brand)) AS joined, unnest(string_to_array(joined, chr(31))) AS name WHERE name <> ''), '{}') AS gap_competitors
    FROM "ai_citations" c JOIN named n ON n.id = c.answer_id
    GROUP BY n.scan_id, c.domain
)
UPDATE "ai_source_totals" t
SET "brand_answers" = p.brand_answers, "gap_citations" = p.gap_citations, "gap_answers" = p.gap_answers, "gap_competitors" = p.gap_competitors
FROM per_domain p
WHERE t.scan_id = p.scan_id AND t.domain = p.domain;
