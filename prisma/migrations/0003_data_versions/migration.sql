-- Data versions: bumped by every ingest, read with the row each request already loads, and
-- part of the report-data and metrics cache keys (so a cached result never outlives its data).
ALTER TABLE "clients" ADD COLUMN "data_version" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "ai_projects" ADD COLUMN "data_version" BIGINT NOT NULL DEFAULT 0;
