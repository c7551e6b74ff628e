-- Prompts, answers (runs) and their citations, and the domains a project owns or watches.
ALTER TABLE "ai_projects"
    ADD COLUMN "domains" TEXT[] NOT NULL DEFAULT '{}',
    -- [{ name, domains: [...] }], one entry per competitor that has domains.
    ADD COLUMN "competitor_domains" JSONB NOT NULL DEFAULT '[]';

-- answer_count: runs stored with the scan (0 for a counters-only scan), the denominator of
-- answer shares. citation_count: their citations. runs_digest: a hash of the runs in a
-- canonical order, so an identical re-send (in any order) is recognised and changes nothing.
ALTER TABLE "scans"
    ADD COLUMN "answer_count" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "citation_count" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "runs_digest" TEXT;

CREATE TABLE "ai_prompts" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "topic" TEXT,
    "tags" TEXT[] NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archived_at" TIMESTAMPTZ(3),

    CONSTRAINT "ai_prompts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ai_prompts_project_id_text_key" ON "ai_prompts"("project_id", "text");
CREATE INDEX "ai_prompts_project_id_created_at_id_idx" ON "ai_prompts"("project_id", "created_at", "id");
ALTER TABLE "ai_prompts" ADD CONSTRAINT "ai_prompts_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "ai_projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One run: a prompt asked once to one model in one locale on one date (the scan's key), and
-- what the model answered. citations repeats the answer's citations (with titles) in order, so
-- an answer is read and exported without a join; ai_citations holds them for aggregation.
CREATE TABLE "ai_answers" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "scan_id" TEXT NOT NULL,
    "prompt_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "brand_mentions" INTEGER NOT NULL,
    "total_mentions" INTEGER NOT NULL,
    "position" INTEGER,
    "sentiment" TEXT,
    "competitors" JSONB NOT NULL DEFAULT '[]',
    "citations" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "ai_answers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ai_answers_scan_id_prompt_id_key" ON "ai_answers"("scan_id", "prompt_id");
-- Keyset pages, newest first: (date, id) after the cursor, per project or per prompt.
CREATE INDEX "ai_answers_project_id_date_id_idx" ON "ai_answers"("project_id", "date" DESC, "id" DESC);
CREATE INDEX "ai_answers_prompt_id_date_id_idx" ON "ai_answers"("prompt_id", "date" DESC, "id" DESC);
ALTER TABLE "ai_answers" ADD CONSTRAINT "ai_answers_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ai_answers" ADD CONSTRAINT "ai_answers_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "ai_prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each citation of an answer, for "which answers cite this domain" (the primary key leads with
-- answer_id: an answer's few citations are checked for the domain) and sources by URL.
CREATE TABLE "ai_citations" (
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

    CONSTRAINT "ai_citations_pkey" PRIMARY KEY ("answer_id", "position")
);
CREATE INDEX "ai_citations_project_id_date_idx" ON "ai_citations"("project_id", "date");
CREATE INDEX "ai_citations_prompt_id_date_idx" ON "ai_citations"("prompt_id", "date");
ALTER TABLE "ai_citations" ADD CONSTRAINT "ai_citations_answer_id_fkey" FOREIGN KEY ("answer_id") REFERENCES "ai_answers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Citations per scan and domain, kept with the scan's runs: sources by domain over a range read
-- these sums (an answer belongs to one scan, so distinct answers per scan add up exactly)
-- instead of every citation. Covering, so a 90-day read is an index-only scan.
CREATE TABLE "ai_source_totals" (
    "scan_id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "citations" INTEGER NOT NULL,
    "answers_citing" INTEGER NOT NULL,

    CONSTRAINT "ai_source_totals_pkey" PRIMARY KEY ("scan_id", "domain")
);
CREATE INDEX "ai_source_totals_project_id_date_idx" ON "ai_source_totals"("project_id", "date") INCLUDE ("model", "locale", "domain", "citations", "answers_citing");
ALTER TABLE "ai_source_totals" ADD CONSTRAINT "ai_source_totals_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
