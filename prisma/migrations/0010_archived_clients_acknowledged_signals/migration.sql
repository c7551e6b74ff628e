-- Clients can be archived (they leave lists, v1 and the graph; their reports and projects stay).
ALTER TABLE "clients" ADD COLUMN "archived_at" TIMESTAMPTZ(3);
-- A signal someone has seen and dealt with.
ALTER TABLE "signals" ADD COLUMN "acknowledged_at" TIMESTAMPTZ(3), ADD COLUMN "acknowledged_by" TEXT;
-- AI-visibility projects can be archived too (they leave lists and reads; ingestion refuses them).
ALTER TABLE "ai_projects" ADD COLUMN "archived_at" TIMESTAMPTZ(3);
-- The MCP clients people connected (oidc-provider's Grant rows) with the workspace their
-- account names ("<userId>.<workspaceId>"), so workspace-bound statements can read them.
CREATE VIEW "mcp_grants" AS
  SELECT g.id, split_part(g.payload->>'accountId', '.', 2) AS workspace_id, g.payload->>'clientId' AS client_id,
         coalesce(c.payload->>'client_name', g.payload->>'clientId') AS client_name, u.email AS user_email,
         to_timestamp((g.payload->>'iat')::bigint) AS created_at
  FROM oauth_models g
  LEFT JOIN oauth_models c ON c.model = 'Client' AND c.id = g.payload->>'clientId'
  LEFT JOIN users u ON u.id = split_part(g.payload->>'accountId', '.', 1)
  WHERE g.model = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > now());
