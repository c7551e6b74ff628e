// The oidc-provider instance of the MCP connector's authorization server: the code flow with
// PKCE S256 only, resource indicators binding opaque access tokens to /mcp, rotating refresh
// tokens, revocation, dynamic registration (limited in client-registration.ts), client ID
// metadata documents (client-metadata-documents.ts), storage in PostgreSQL (oauth-adapter.ts),
// a signing key sealed with APP_SECRET_KEY. Everything it fetches goes through the outbound guard.
import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import { ApiError } from '../../errors/index.js';
import { html, page, pageSecurityHeaders } from '../../http/html.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { recordAudit } from '../../audit/index.js';
import { mcpErrorResponse } from '../errors.js';
import { postgresAdapter } from './oauth-adapter.js';
import { GRANTABLE_SCOPES, parseAccountId } from './oauth-accounts.js';
import { INTERACTION_PREFIX } from './consent.js';
import { requestIdOfNode } from '../../http/responses.js';
import { runStatement, sqlStatement } from '../../db/sql-runner.js';
import { ACCESS_TOKEN_TTL_SECONDS, clientMetadataDocuments, resourceIndicators } from './provider-features.js';

const SIGNING_KEY_ID = 'oauth-signing-key-1';

export interface OAuthProviderDeps {
  config: Config;
  pool: pg.Pool;
  box: SecretBox;
  logger: Logger;
  issuer: string;
  resource: string;
  /** A token or grant was revoked: cached token holders go, on every instance. */
  onRevocation(): void;
  /** The caller's address (socket or trusted proxy), for the per-address limits. */
  addressOf(req: IncomingMessage): string;
}

const SIGNING_KEY = sqlStatement<{ sealed_jwk: string }, { id: string }>(
  'oauth.signing-key',
  (param) => `SELECT sealed_jwk FROM oauth_signing_keys WHERE id = ${param('id')}`,
);
const STORE_SIGNING_KEY = sqlStatement<never, { id: string; sealedJwk: string }>(
  'oauth.store-signing-key',
  (param) => `INSERT INTO oauth_signing_keys (id, sealed_jwk) VALUES (${param('id')}, ${param('sealedJwk')})
    ON CONFLICT (id) DO NOTHING`,
);
const MEMBERSHIP_EXISTS = sqlStatement<{ member: number }, { userId: string; workspaceId: string }>(
  'oauth.membership-exists',
  (param) =>
    `SELECT 1 AS member FROM memberships WHERE user_id = ${param('userId')} AND workspace_id = ${param('workspaceId')}`,
);

/** The signing key, made and sealed on first use; every instance reads the one stored. */
async function signingKey(pool: pg.Pool, box: SecretBox): Promise<Record<string, unknown>> {
  const context = `oauth_signing_key:${SIGNING_KEY_ID}`;
  const read = () => runStatement(pool, SIGNING_KEY, { id: SIGNING_KEY_ID });
  if (!(await read()).rows[0]) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid: SIGNING_KEY_ID, alg: 'RS256', use: 'sig' };
    await runStatement(pool, STORE_SIGNING_KEY, {
      id: SIGNING_KEY_ID,
      sealedJwk: box.seal(JSON.stringify(jwk), context),
    });
  }
  const row = (await read()).rows[0]!;
  return JSON.parse(box.open(row.sealed_jwk, context)) as Record<string, unknown>;
}

async function membershipExists(pool: pg.Pool, accountId: string): Promise<boolean> {
  const account = parseAccountId(accountId);
  if (!account) return false;
  const result = await runStatement(pool, MEMBERSHIP_EXISTS, account);
  return result.rowCount === 1;
}

/** Where the provider serves each endpoint. */
export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
};

const TTL = {
  AccessToken: ACCESS_TOKEN_TTL_SECONDS,
  AuthorizationCode: 60,
  IdToken: 3_600,
  RefreshToken: 30 * 86_400,
  Grant: 365 * 86_400,
  Interaction: 3_600,
  Session: 14 * 86_400,
};

/** The provider's own errors, as a page: the person is in a browser. */
const renderError: Configuration['renderError'] = async (ctx, out) => {
  ctx.type = 'html';
  ctx.set(pageSecurityHeaders());
  ctx.body = page(
    'Authorization error',
    html`<section>
      <h1>That did not work</h1>
      <p><code>${out.error}</code>: ${out.error_description ?? ''}</p>
    </section>`,
  ).value;
};

async function configuration(deps: OAuthProviderDeps): Promise<Configuration> {
  const documents = clientMetadataDocuments(deps);
  return {
    adapter: postgresAdapter(deps.pool, deps.box),
    jwks: { keys: [(await signingKey(deps.pool, deps.box)) as never] },
    cookies: { keys: [deps.box.derive('oauth-cookies').toString('base64url')] },
    routes: ROUTES,
    // Provider-wide scopes; the toolset and write scopes are the resource's only
    // (getResourceServerInfo), so a client's registered `scope` does not limit them: the consent does.
    scopes: GRANTABLE_SCOPES.filter((scope) => scope !== 'openid'),
    claims: { openid: ['sub'] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientIdMetadataDocument: documents.feature,
      // A client revokes its own tokens only (oidc-provider's default, said here so it need not announce it).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: false },
      // No MCP client signs a person out through the authorization server, and the provider's own
      // sign-out pages (inline script, no CSP, cookies on an anonymous GET) signed no one out of the app.
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: resourceIndicators(deps.resource),
    },
    // OAuth 2.1: the code flow only; implicit and hybrid response types are neither offered nor registrable.
    responseTypes: ['code'],
    fetch: documents.fetch as Configuration['fetch'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: TTL,
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
    findAccount: async (_ctx, accountId) =>
      (await membershipExists(deps.pool, accountId))
        ? { accountId, claims: async () => ({ sub: accountId }) }
        : undefined,
    renderError,
  };
}

/** What the provider's events mean here: a revocation announced (and a grant's audited), a fault logged. */
function listen(provider: Provider, deps: OAuthProviderDeps) {
  provider.on('access_token.destroyed', deps.onRevocation);
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    deps.onRevocation();
    const token = ctx.oidc?.entities.RefreshToken ?? ctx.oidc?.entities.AccessToken;
    const account = parseAccountId(String(token?.accountId ?? ''));
    if (!account) return;
    void recordAudit(deps.pool, {
      workspaceId: account.workspaceId,
      actor: account.userId,
      action: 'mcp.grant_revoked',
      target: String(token?.clientId ?? ''),
      details: { grantId, via: ctx.path },
    }).catch((error: unknown) => deps.logger.error({ err: error }, 'auditing a grant revocation failed'));
  });
  // With the request's id its answer carries (the node server set it on the request), so the log line can be found.
  provider.on('server_error', (ctx, error) =>
    deps.logger.error({ err: error, requestId: requestIdOfNode(ctx.req) }, 'oauth server error'),
  );
}

export async function createOAuthProvider(deps: OAuthProviderDeps): Promise<Provider> {
  const provider = new Provider(deps.issuer, await configuration(deps));
  provider.proxy = deps.config.TRUST_PROXY;
  // A path the provider does not serve gets the 404 envelope of every other door, not Koa's plain text.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body != null) return;
    const response = mcpErrorResponse(new ApiError('not_found', 'No such OAuth path.'), requestIdOfNode(ctx.req));
    ctx.status = response.status;
    ctx.type = 'application/json';
    ctx.body = await response.text();
  });
  listen(provider, deps);
  return provider;
}
