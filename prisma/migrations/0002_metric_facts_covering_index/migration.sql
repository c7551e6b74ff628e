-- Index-only scans for the report engine: a range of one client/provider/dimension reads its
-- sums from adjacent index pages instead of ~90 heap pages scattered by load order.
-- Prisma's schema language cannot express INCLUDE, so this index lives only in migrations
-- (README: "Database changes").
CREATE INDEX IF NOT EXISTS "metric_facts_covering_idx" ON "metric_facts" ("client_id", "provider", "dimension", "date", "dimension_value")
  INCLUDE ("sessions", "engaged_sessions", "users", "new_users", "conversions", "conversion_value", "clicks", "impressions", "cost", "reach", "position_weighted");
