// The MCP connector's OAuth 2.1 authorization server: oidc-provider (dynamic client
// registration, authorization code + PKCE S256, resource indicators binding tokens to the /mcp
// resource, rotating refresh tokens, revocation), stored in PostgreSQL. Sign-in is the web
// app's session (password or SSO); consent and the choice of one workspace happen on our own
// server-rendered page. oidc-provider is a Koa app, so it is served from node:http directly.
import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Plan, Role } from '../db/generated/prisma/enums.js';
import { html, page } from '../http/html.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { LOGIN_PATH } from '../sessions/handler.js';
import { workspacesOf } from '../sessions/session-store.js';
import type { WebSessions } from '../sessions/web-session.js';
import { CSRF_FIELD } from '../sessions/web-session.js';
import { postgresAdapter, sweepExpired } from './oauth-adapter.js';
import { recordAudit } from '../audit/audit-log.js';
import { isAuthorizationServerPath, MCP_PATH, OAUTH_INVALIDATION_TARGET } from './connector.js';

export const MCP_SCOPE = 'mcp';
export const INTERACTION_PREFIX = '/oauth/interaction/';
/** Paid plans: the connector is not available on `free`. */
export const MCP_PLANS: readonly Plan[] = ['starter', 'pro', 'agency', 'scale'];
const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const SIGNING_KEY_ID = 'oauth-signing-key-1';

/** The account of a grant is one membership: a person in one workspace. */
export const accountIdOf = (userId: string, workspaceId: string) => `${userId}.${workspaceId}`;
export function parseAccountId(accountId: string): { userId: string; workspaceId: string } | null {
  const [userId, workspaceId, ...rest] = accountId.split('.');
  return userId && workspaceId && !rest.length ? { userId, workspaceId } : null;
}

export interface TokenHolder {
  userId: string;
  workspaceId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  role: Role;
  plan: Plan;
  timezone: string;
  email: string;
  writeActions: boolean;
}

export interface AuthorizationServerDeps {
  config: Config;
  pool: pg.Pool;
  prisma: PrismaClient;
  box: SecretBox;
  sessions: WebSessions;
  logger: Logger;
  /** Tells every instance that cached token holders are stale (revocations). */
  notify(target: string): Promise<void>;
}

// Verified tokens are kept like API keys: 30 s at most, dropped on every instance the moment a
// token or grant is revoked, a plan changes, or the invalidation channel reconnects.
const TOKEN_CACHE_TTL_MS = 30_000;

const headersOf = (req: IncomingMessage) => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  return headers;
};

async function readBody(req: IncomingMessage, limit = 16 * 1024): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > limit) throw new Error('body too large');
  }
  return new URLSearchParams(text);
}

export function createAuthorizationServer(deps: AuthorizationServerDeps) {
  const { config, pool } = deps;
  const providers = new Map<string, Promise<Provider>>();
  const verified = new LRUCache<string, TokenHolder & { expiresAtMs: number }>({ max: 10_000, ttl: TOKEN_CACHE_TTL_MS });
  const announceRevocation = () => {
    verified.clear();
    void deps.notify(OAUTH_INVALIDATION_TARGET).catch((error) => deps.logger.error({ err: error }, 'announcing an OAuth revocation failed'));
  };
  // Expired codes, tokens and interactions are swept at most this often, on the way through a token request.
  const SWEEP_EVERY_MS = 10 * 60_000;
  let lastSweep = 0;
  const issuerOf = (origin: string) => config.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? origin;
  const resourceOf = (origin: string) => `${issuerOf(origin)}${MCP_PATH}`;

  async function signingKey(): Promise<Record<string, unknown>> {
    const existing = await pool.query<{ sealed_jwk: string }>('SELECT sealed_jwk FROM oauth_signing_keys WHERE id = $1', [SIGNING_KEY_ID]);
    if (!existing.rows[0]) {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const jwk = { ...privateKey.export({ format: 'jwk' }), kid: SIGNING_KEY_ID, alg: 'RS256', use: 'sig' };
      await pool.query('INSERT INTO oauth_signing_keys (id, sealed_jwk) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [SIGNING_KEY_ID, deps.box.seal(JSON.stringify(jwk), `oauth_signing_key:${SIGNING_KEY_ID}`)]);
    }
    const row = (await pool.query<{ sealed_jwk: string }>('SELECT sealed_jwk FROM oauth_signing_keys WHERE id = $1', [SIGNING_KEY_ID])).rows[0]!;
    return JSON.parse(deps.box.open(row.sealed_jwk, `oauth_signing_key:${SIGNING_KEY_ID}`)) as Record<string, unknown>;
  }

  async function membershipExists(accountId: string): Promise<boolean> {
    const account = parseAccountId(accountId);
    if (!account) return false;
    const result = await pool.query('SELECT 1 FROM memberships WHERE user_id = $1 AND workspace_id = $2', [account.userId, account.workspaceId]);
    return result.rowCount === 1;
  }

  async function build(origin: string): Promise<Provider> {
    const issuer = issuerOf(origin);
    const resource = resourceOf(origin);
    const provider = new Provider(issuer, {
      adapter: postgresAdapter(pool),
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
      // 'mcp' is both a scope clients may register and request and the resource server's scope.
      scopes: [MCP_SCOPE, 'offline_access'],
      claims: { openid: ['sub'] },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true },
        revocation: { enabled: true },
        userinfo: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
            return { scope: MCP_SCOPE, audience: resource, accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS, accessTokenFormat: 'opaque' };
          },
        },
      },
      clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'RS256' },
      pkce: { required: () => true },
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      ttl: { AccessToken: ACCESS_TOKEN_TTL_SECONDS, AuthorizationCode: 60, RefreshToken: 30 * 86_400, Grant: 365 * 86_400, Interaction: 3_600, Session: 14 * 86_400 },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
      findAccount: async (_ctx, accountId) => ((await membershipExists(accountId)) ? { accountId, claims: async () => ({ sub: accountId }) } : undefined),
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        ctx.body = page('Authorization error', html`<section><h1>That did not work</h1><p><code>${out.error}</code>: ${out.error_description ?? ''}</p></section>`).value;
      },
    });
    provider.proxy = config.TRUST_PROXY;
    provider.on('access_token.destroyed', announceRevocation);
    provider.on('grant.revoked', announceRevocation);
    provider.on('server_error', (_ctx, error) => deps.logger.error({ err: error }, 'oauth server error'));
    return provider;
  }

  function providerFor(origin: string): Promise<Provider> {
    const issuer = issuerOf(origin);
    if (!providers.has(issuer)) providers.set(issuer, build(origin));
    return providers.get(issuer)!;
  }

  const originOf = (req: IncomingMessage) => {
    const proto = config.TRUST_PROXY && typeof req.headers['x-forwarded-proto'] === 'string' ? req.headers['x-forwarded-proto'].split(',')[0]!.trim() : 'http';
    return `${proto}://${req.headers.host ?? 'localhost'}`;
  };

  async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse, origin: string) {
    const url = new URL(req.url!, origin);
    const request = new Request(url, { headers: headersOf(req), method: 'GET' });
    const details = await provider.interactionDetails(req, res);
    const session = await deps.sessions.read(request);
    if (!session) {
      res.writeHead(303, { Location: `${LOGIN_PATH}?next=${encodeURIComponent(url.pathname)}`, 'Cache-Control': 'no-store' }).end();
      return;
    }
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    const workspaces = (await workspacesOf(pool, session.userId)).filter((workspace) => MCP_PLANS.includes(workspace.plan));

    if (req.method === 'POST') {
      deps.sessions.assertSameOrigin(new Request(url, { headers: headersOf(req), method: 'POST' }));
      const form = await readBody(req);
      deps.sessions.assertCsrf(session, request, Object.fromEntries(form));
      if (form.get('decision') !== 'allow') {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person declined.' }, { mergeWithLastSubmission: false });
        return;
      }
      const workspace = workspaces.find((candidate) => candidate.id === form.get('workspace'));
      if (!workspace) throw new errors.AccessDenied('choose one of your workspaces on a paid plan');
      const accountId = accountIdOf(session.userId, workspace.id);
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addResourceScope(resourceOf(origin), MCP_SCOPE);
      const requested = String(details.params.scope ?? '').split(' ').filter((scope) => [MCP_SCOPE, 'offline_access'].includes(scope));
      if (requested.length) grant.addOIDCScope(requested.join(' '));
      const grantId = await grant.save();
      await recordAudit(deps.prisma, { workspaceId: workspace.id, actor: session.userId, action: 'mcp.client_authorized', target: String(details.params.client_id), details: { clientName, grantId } });
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      return;
    }

    const body = workspaces.length
      ? html`<div class="login"><section><h1>Connect ${clientName}</h1>
<p><strong>${clientName}</strong> asks to use Signalboard as <strong>${session.email}</strong>: it can read the clients, reports and AI-visibility data of one workspace, and — only if an admin switches write actions on — change reports, projects and signal rules.</p>
<form method="post" action="${url.pathname}"><input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}">
<label>Workspace <select name="workspace">${workspaces.map((workspace) => html`<option value="${workspace.id}"${workspace.id === session.workspaceId ? html` selected` : ''}>${workspace.name} (${workspace.plan})</option>`)}</select></label>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form><p class="muted">You can disconnect it at any time in Settings.</p></section></div>`
      : html`<div class="login"><section><h1>Not available</h1><p>The MCP connector needs a paid plan (${MCP_PLANS.join(', ')}); none of your workspaces has one.</p></section></div>`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' *; frame-ancestors 'none'" });
    res.end(page('Connect an app', body).value);
  }

  return {
    resourceOf,
    issuerOf,
    /** Serves the authorization server's paths; false for every other path. */
    handles: isAuthorizationServerPath,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const origin = originOf(req);
      const provider = await providerFor(origin);
      const path = new URL(req.url!, origin).pathname;
      if (path.startsWith(INTERACTION_PREFIX)) {
        try {
          await interaction(provider, req, res, origin);
        } catch (error) {
          if (res.headersSent) return;
          const status = (error as { status?: number }).status ?? 400;
          res.writeHead(status < 500 ? status : 400, { 'Content-Type': 'text/html; charset=utf-8' }).end(page('Authorization error', html`<section><h1>That did not work</h1><p>${(error as Error).message}</p></section>`).value);
        }
        return;
      }
      if (path === '/oauth/token' && Date.now() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        void sweepExpired(pool).catch((error) => deps.logger.warn({ err: error }, 'sweeping expired OAuth rows failed'));
      }
      // RFC 8414 metadata at the root path the MCP authorization spec looks at.
      if (path === '/.well-known/oauth-authorization-server') req.url = '/.well-known/openid-configuration';
      provider.callback()(req, res);
    },
    /**
     * The holder of an access token for the MCP resource with their membership, or null
     * (unknown, expired, revoked, another audience, no longer a member). One statement on the
     * provider's own rows: opaque tokens are stored under their value, revocation deletes them.
     */
    async verifyAccessToken(token: string, origin: string): Promise<TokenHolder | null> {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      const cached = verified.get(`${origin}|${token}`);
      if (cached && cached.expiresAtMs > Date.now()) return cached;
      const row = (await pool.query<{ payload: { aud?: string | string[]; accountId?: string; clientId?: string; scope?: string; exp?: number }; client_name: string | null; role: Role; plan: Plan; timezone: string; mcp_write_actions: boolean; email: string }>(
        `SELECT t.payload, c.payload->>'client_name' AS client_name, m.role, w.plan, w.timezone, w.mcp_write_actions, u.email
         FROM oauth_models t
         JOIN memberships m ON m.user_id = split_part(t.payload->>'accountId', '.', 1) AND m.workspace_id = split_part(t.payload->>'accountId', '.', 2)
         JOIN workspaces w ON w.id = m.workspace_id
         JOIN users u ON u.id = m.user_id
         LEFT JOIN oauth_models c ON c.model = 'Client' AND c.id = t.payload->>'clientId'
         WHERE t.model = 'AccessToken' AND t.id = $1 AND (t.expires_at IS NULL OR t.expires_at > now())`,
        [token],
      )).rows[0];
      if (!row || (row.payload.exp !== undefined && row.payload.exp * 1000 <= Date.now())) return null;
      const audience = row.payload.aud;
      const resource = resourceOf(origin);
      if (audience !== resource && !(Array.isArray(audience) && audience.includes(resource))) return null;
      const account = parseAccountId(row.payload.accountId ?? '');
      const clientId = row.payload.clientId;
      if (!account || !clientId) return null;
      const holder = { ...account, clientId, clientName: row.client_name ?? clientId, scopes: (row.payload.scope ?? '').split(' ').filter(Boolean), role: row.role, plan: row.plan, timezone: row.timezone, writeActions: row.mcp_write_actions, email: row.email };
      verified.set(`${origin}|${token}`, { ...holder, expiresAtMs: row.payload.exp ? row.payload.exp * 1000 : Date.now() + TOKEN_CACHE_TTL_MS });
      return holder;
    },
    /** An invalidation message (local or from another instance): OAuth revocations, plan and workspace changes drop the cache. */
    invalidate(target: string) {
      if (target === OAUTH_INVALIDATION_TARGET || target.startsWith('*')) verified.clear();
    },
  };
}

export type AuthorizationServer = ReturnType<typeof createAuthorizationServer>;
