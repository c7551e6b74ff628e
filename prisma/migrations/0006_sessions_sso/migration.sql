-- Sessions: expires_at is the absolute end; last_seen_at drives the idle timeout.
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
-- The synchronizer token of the session's forms (CSRF), random per session.
ALTER TABLE "sessions" ADD COLUMN "csrf_token" TEXT NOT NULL DEFAULT '';
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Failed sign-ins per account and per address, shared by every instance.
CREATE TABLE "login_throttle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "window_started_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "login_throttle_pkey" PRIMARY KEY ("key")
);

-- A domain may be claimed by several workspaces (an unverified claim blocks nobody); once
-- verified it belongs to one. (Prisma cannot express the partial unique index: keep it when
-- `prisma migrate diff` proposes to drop it.)
DROP INDEX "sso_domains_domain_key";
CREATE UNIQUE INDEX "sso_domains_workspace_id_domain_key" ON "sso_domains"("workspace_id", "domain");
CREATE UNIQUE INDEX "sso_domains_verified_domain_key" ON "sso_domains"("domain") WHERE "verified_at" IS NOT NULL;

ALTER TABLE "sso_connections" ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
