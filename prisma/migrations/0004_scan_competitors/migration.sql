-- Competitor counters per scan: [{ name, visibilityCount, mentionCount, positionedCount, positionSum }],
-- pooled against the scan's own runs and mentions exactly like the brand's counters.
ALTER TABLE "scans" ADD COLUMN "competitors" JSONB NOT NULL DEFAULT '[]';
-- Only scans that carry competitor counters are read for competitor totals; without any, the
-- statement costs an empty index probe. (Prisma cannot express partial indexes: keep this line
-- when `prisma migrate diff` proposes to drop it.)
CREATE INDEX "scans_with_competitors_idx" ON "scans" ("project_id", "date") WHERE "competitors" <> '[]'::jsonb;
