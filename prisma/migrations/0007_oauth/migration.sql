-- The MCP connector's OAuth 2.1 authorization server (oidc-provider) keeps its state here:
-- clients (dynamic registration), grants, authorization codes, access and refresh tokens,
-- interactions and sessions, each a JSON payload with its expiry.
CREATE TABLE "oauth_models" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "user_code" TEXT,
    "uid" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_models_pkey" PRIMARY KEY ("model", "id")
);
CREATE INDEX "oauth_models_grant_id_idx" ON "oauth_models"("grant_id");
CREATE INDEX "oauth_models_uid_idx" ON "oauth_models"("uid");
CREATE INDEX "oauth_models_user_code_idx" ON "oauth_models"("user_code");
CREATE INDEX "oauth_models_expires_at_idx" ON "oauth_models"("expires_at");

-- The authorization server's signing key, sealed with APP_SECRET_KEY; one row, made on first use.
CREATE TABLE "oauth_signing_keys" (
    "id" TEXT NOT NULL,
    "sealed_jwk" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_signing_keys_pkey" PRIMARY KEY ("id")
);
