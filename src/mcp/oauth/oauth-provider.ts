// The oidc-provider instance of the MCP connector's authorization server: the code flow with
// PKCE S256 only, resource indicators binding opaque access tokens to /mcp, rotating refresh
// tokens, revocation, dynamic registration (limited in client-registration.ts), client ID
// metadata documents (client-metadata-documents.ts), storage in PostgreSQL (oauth-adapter.ts),
// a signing key sealed with APP_SECRET_KEY. Everything it fetches goes through the outbound guard.
import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { html, page, pageSecurityHeaders } from '../../http/html.js';
import { newRequestId } from '../../http/responses.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { recordAudit } from '../../audit/index.js';
import { postgresAdapter } from './oauth-adapter.js';
import { GRANTABLE_SCOPES, parseAccountId } from './oauth-accounts.js';
import { INTERACTION_PREFIX } from './consent.js';
import { RESOURCE_SCOPES } from '../tools/toolsets.js';
import { createOutboundFetch } from '../../http/outbound-fetch.js';
import {
  CLIENT_METADATA_CACHE_SECONDS,
  CLIENT_METADATA_FETCH_POLICY,
  CLIENT_METADATA_MAX_BYTES,
  CLIENT_METADATA_TIMEOUT_MS,
  clientMetadataFetchKey,
  clientMetadataPolicy,
  clientMetadataProblem,
  mayFetchClientMetadata,
  rememberingFetch,
} from './client-metadata-documents.js';
import { reserveAttempts } from '../../db/attempt-counters.js';

const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const SIGNING_KEY_ID = 'oauth-signing-key-1';

export interface OAuthProviderDeps {
  config: Config;
  pool: pg.Pool;
  prisma: PrismaClient;
  box: SecretBox;
  logger: Logger;
  issuer: string;
  resource: string;
  /** A token or grant was revoked: cached token holders go, on every instance. */
  onRevocation(): void;
  /** The caller's address (socket or trusted proxy), for the per-address limits. */
  addressOf(req: IncomingMessage): string;
}

export async function createOAuthProvider(deps: OAuthProviderDeps): Promise<Provider> {
  const { config, pool } = deps;
  async function signingKey(): Promise<Record<string, unknown>> {
    const existing = await pool.query<{ sealed_jwk: string }>(
      'SELECT sealed_jwk FROM oauth_signing_keys WHERE id = $1',
      [SIGNING_KEY_ID],
    );
    if (!existing.rows[0]) {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const jwk = { ...privateKey.export({ format: 'jwk' }), kid: SIGNING_KEY_ID, alg: 'RS256', use: 'sig' };
      await pool.query('INSERT INTO oauth_signing_keys (id, sealed_jwk) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
        SIGNING_KEY_ID,
        deps.box.seal(JSON.stringify(jwk), `oauth_signing_key:${SIGNING_KEY_ID}`),
      ]);
    }
    const row = (
      await pool.query<{ sealed_jwk: string }>('SELECT sealed_jwk FROM oauth_signing_keys WHERE id = $1', [
        SIGNING_KEY_ID,
      ])
    ).rows[0]!;
    return JSON.parse(deps.box.open(row.sealed_jwk, `oauth_signing_key:${SIGNING_KEY_ID}`)) as Record<string, unknown>;
  }

  async function membershipExists(accountId: string): Promise<boolean> {
    const account = parseAccountId(accountId);
    if (!account) return false;
    const result = await pool.query('SELECT 1 FROM memberships WHERE user_id = $1 AND workspace_id = $2', [
      account.userId,
      account.workspaceId,
    ]);
    return result.rowCount === 1;
  }

  async function build(): Promise<Provider> {
    const resourceIndicator = deps.resource;
    const outboundPolicy = clientMetadataPolicy(config);
    const documents = rememberingFetch(
      createOutboundFetch({
        policy: outboundPolicy,
        timeoutMs: CLIENT_METADATA_TIMEOUT_MS,
        maxBytes: CLIENT_METADATA_MAX_BYTES,
      }),
    );
    const provider = new Provider(deps.issuer, {
      adapter: postgresAdapter(pool, deps.box),
      jwks: { keys: [(await signingKey()) as never] },
      cookies: { keys: [deps.box.derive('oauth-cookies').toString('base64url')] },
      routes: {
        authorization: '/oauth/authorize',
        token: '/oauth/token',
        registration: '/oauth/register',
        revocation: '/oauth/revoke',
        jwks: '/oauth/jwks',
        userinfo: '/oauth/userinfo',
        end_session: '/oauth/session/end',
        introspection: '/oauth/introspect',
        pushed_authorization_request: '/oauth/par',
        code_verification: '/oauth/device',
        device_authorization: '/oauth/device/auth',
        backchannel_authentication: '/oauth/backchannel',
        challenge: '/oauth/challenge',
      },
      // Provider-wide scopes; the toolset and write scopes are the resource's only (getResourceServerInfo),
      // so a client's registered `scope` does not limit them: the consent does.
      scopes: GRANTABLE_SCOPES.filter((scope) => scope !== 'openid'),
      claims: { openid: ['sub'] },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true },
        clientIdMetadataDocument: {
          enabled: true,
          ack: 'draft-02',
          allowFetch: async (ctx, clientId) => {
            if (!mayFetchClientMetadata(outboundPolicy, clientId)) return false;
            // A replayed answer is no new request: it does not count.
            if (documents.remembers(clientId)) return true;
            const key = clientMetadataFetchKey(deps.addressOf(ctx.req));
            const counted = (await reserveAttempts(pool, [{ key, policy: CLIENT_METADATA_FETCH_POLICY }])).get(key)!;
            return counted.count <= CLIENT_METADATA_FETCH_POLICY.limit;
          },
          allowClient: async (_ctx, client) => {
            const problem = clientMetadataProblem(client);
            if (problem) deps.logger.warn({ clientId: client.clientId, problem }, 'client metadata document refused');
            return problem === null;
          },
          cacheDuration: CLIENT_METADATA_CACHE_SECONDS,
        },
        // A client revokes its own tokens only (oidc-provider's default, said here so it need not announce it).
        revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
        userinfo: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resourceIndicator,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resourceIndicator)
              throw new errors.InvalidTarget(`the only resource here is ${resourceIndicator}`);
            return {
              scope: RESOURCE_SCOPES.join(' '),
              audience: resourceIndicator,
              accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
              accessTokenFormat: 'opaque',
            };
          },
        },
      },
      // OAuth 2.1: the code flow only; implicit and hybrid response types are neither offered nor registrable.
      responseTypes: ['code'],
      fetch: (url, options) =>
        documents.fetch(url instanceof Request ? url.url : url, options as Parameters<typeof documents.fetch>[1]),
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'RS256',
      },
      pkce: { required: () => true },
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      ttl: {
        AccessToken: ACCESS_TOKEN_TTL_SECONDS,
        AuthorizationCode: 60,
        IdToken: 3_600,
        RefreshToken: 30 * 86_400,
        Grant: 365 * 86_400,
        Interaction: 3_600,
        Session: 14 * 86_400,
      },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
      findAccount: async (_ctx, accountId) =>
        (await membershipExists(accountId)) ? { accountId, claims: async () => ({ sub: accountId }) } : undefined,
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        ctx.set(pageSecurityHeaders());
        ctx.body = page(
          'Authorization error',
          html`<section><h1>That did not work</h1><p><code>${out.error}</code>: ${out.error_description ?? ''}</p></section>`,
        ).value;
      },
    });
    provider.proxy = config.TRUST_PROXY;
    // A path the provider does not serve gets the 404 envelope of every other door, not Koa's plain text.
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.status !== 404 || ctx.body != null) return;
      ctx.body = { error: { code: 'not_found', message: 'No such OAuth path.', requestId: newRequestId() } };
      ctx.status = 404;
    });
    provider.on('access_token.destroyed', deps.onRevocation);
    provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
      deps.onRevocation();
      const token = ctx.oidc?.entities.RefreshToken ?? ctx.oidc?.entities.AccessToken;
      const account = parseAccountId(String(token?.accountId ?? ''));
      if (!account) return;
      void recordAudit(deps.prisma, {
        workspaceId: account.workspaceId,
        actor: account.userId,
        action: 'mcp.grant_revoked',
        target: String(token?.clientId ?? ''),
        details: { grantId, via: ctx.path },
      }).catch((error: unknown) => deps.logger.error({ err: error }, 'auditing a grant revocation failed'));
    });
    provider.on('server_error', (_ctx, error) => deps.logger.error({ err: error }, 'oauth server error'));
    return provider;
  }

  return build();
}
