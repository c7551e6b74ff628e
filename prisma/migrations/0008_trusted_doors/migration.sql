-- Fixed-window attempt counters (sign-in per account, per address, per account+address;
-- client registrations; reset requests), reserved atomically before the work they guard.
-- Rows are short-lived; the old sign-in throttle's rows are not worth carrying over.
DROP TABLE "login_throttle";
CREATE TABLE "attempt_counters" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "limit_count" INTEGER NOT NULL,
    "window_ends_at" TIMESTAMPTZ(3) NOT NULL,
    -- When the count first went over the limit in this window (the start of a lock).
    "exceeded_at" TIMESTAMPTZ(6),
    CONSTRAINT "attempt_counters_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "attempt_counters_window_ends_at_idx" ON "attempt_counters"("window_ends_at");

-- An SSO identity is (issuer, subject), bound to one account; never matched by email.
CREATE TABLE "user_identities" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_identities_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "user_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "user_identities_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "user_identities_issuer_subject_key" ON "user_identities"("issuer", "subject");
CREATE INDEX "user_identities_workspace_id_idx" ON "user_identities"("workspace_id");

-- An owner's approval that a member's next company sign-in links to their existing account.
CREATE TABLE "sso_link_approvals" (
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "approved_by" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sso_link_approvals_pkey" PRIMARY KEY ("workspace_id", "user_id"),
    CONSTRAINT "sso_link_approvals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "sso_link_approvals_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A session signed in through a workspace's identity provider stays in that workspace.
ALTER TABLE "sessions" ADD COLUMN "sso_workspace_id" TEXT;
CREATE INDEX "sessions_sso_workspace_id_idx" ON "sessions"("sso_workspace_id");

-- Password reset links: the token's SHA-256 only, single use, short-lived.
CREATE TABLE "password_resets" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "password_resets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "password_resets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "password_resets_user_id_idx" ON "password_resets"("user_id");

-- "Require SSO": password sign-in refused for members whose address is in a verified domain (owners excepted).
ALTER TABLE "workspaces" ADD COLUMN "require_sso" BOOLEAN NOT NULL DEFAULT false;

-- OAuth rows written before this migration hold usable credentials as ids and payloads;
-- the adapter now stores hashes and sealed values, so those rows are dropped (clients re-register).
DELETE FROM "oauth_models";
