// The MCP connector's OAuth 2.1 authorization server: oidc-provider (dynamic client
// registration within limits, the authorization code flow with PKCE S256 only, resource
// indicators binding tokens to the /mcp resource, rotating refresh tokens, revocation), stored
// in PostgreSQL without usable credentials (oauth-adapter.ts). One issuer: PUBLIC_BASE_URL (or
// the listening address in development); a request for another Host is refused before anything
// is built. Sign-in is the web app's session (password or SSO); consent and the choice of one
// workspace happen on our own page (consent-page.ts). oidc-provider is a Koa app, so it is
// served from node:http directly; bodies are read here, within the one byte limit.
import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Plan, Role } from '../db/generated/prisma/enums.js';
import { html, page, pageSecurityHeaders } from '../http/html.js';
import { BODY_LIMITS, readNodeBody } from '../http/body.js';
import type { PublicOrigin } from '../http/public-origin.js';
import { ApiError } from '../errors/index.js';
import { JSON_CONTENT_TYPE, newRequestId } from '../http/responses.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { LOGIN_PATH } from '../sessions/paths.js';
import { workspacesOf } from '../sessions/session-store.js';
import type { WebSessions } from '../sessions/web-session.js';
import { reserveAttempts, type CounterPolicy } from '../db/attempt-counters.js';
import { postgresAdapter, storedIdOf, sweepExpired } from './oauth-adapter.js';
import { recordAudit } from '../audit/audit-log.js';
import { registrationProblem } from './client-registration.js';
import { consentPage } from './consent-page.js';
import { isAuthorizationServerPath, MCP_PATH, OAUTH_INVALIDATION_TARGET } from './connector.js';

export const MCP_SCOPE = 'mcp';
export const INTERACTION_PREFIX = '/oauth/interaction/';
/** Paid plans: the connector is not available on `free`. */
export const MCP_PLANS: readonly Plan[] = ['starter', 'pro', 'agency', 'scale'];
const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** Dynamic registrations per caller address. */
const REGISTRATION_POLICY: CounterPolicy = { limit: 10, windowMs: 3_600_000 };
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
  publicOrigin: PublicOrigin;
  /** The caller's address (socket or trusted proxy), for the registration limit. */
  addressOf(req: IncomingMessage): string;
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

export function createAuthorizationServer(deps: AuthorizationServerDeps) {
  const { config, pool } = deps;
  let provider: Promise<Provider> | null = null;
  const verified = new LRUCache<string, TokenHolder & { expiresAtMs: number }>({ max: 10_000, ttl: TOKEN_CACHE_TTL_MS });
  const announceRevocation = () => {
    verified.clear();
    void deps.notify(OAUTH_INVALIDATION_TARGET).catch((error) => deps.logger.error({ err: error }, 'announcing an OAuth revocation failed'));
  };
  // Expired codes, tokens and interactions are swept at most this often, on the way through a token request.
  const SWEEP_EVERY_MS = 10 * 60_000;
  let lastSweep = 0;
  const issuer = () => deps.publicOrigin.value;
  const resource = () => `${issuer()}${MCP_PATH}`;

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

  async function build(): Promise<Provider> {
    const resourceIndicator = resource();
    const provider = new Provider(issuer(), {
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
          defaultResource: () => resourceIndicator,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resourceIndicator) throw new errors.InvalidTarget(`the only resource here is ${resourceIndicator}`);
            return { scope: MCP_SCOPE, audience: resourceIndicator, accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS, accessTokenFormat: 'opaque' };
          },
        },
      },
      // OAuth 2.1: the code flow only; implicit and hybrid response types are neither offered nor registrable.
      responseTypes: ['code'],
      clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'RS256' },
      pkce: { required: () => true },
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      ttl: { AccessToken: ACCESS_TOKEN_TTL_SECONDS, AuthorizationCode: 60, RefreshToken: 30 * 86_400, Grant: 365 * 86_400, Interaction: 3_600, Session: 14 * 86_400 },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
      findAccount: async (_ctx, accountId) => ((await membershipExists(accountId)) ? { accountId, claims: async () => ({ sub: accountId }) } : undefined),
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        ctx.set(pageSecurityHeaders());
        ctx.body = page('Authorization error', html`<section><h1>That did not work</h1><p><code>${out.error}</code>: ${out.error_description ?? ''}</p></section>`).value;
      },
    });
    provider.proxy = config.TRUST_PROXY;
    provider.on('access_token.destroyed', announceRevocation);
    provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
      announceRevocation();
      const token = ctx.oidc?.entities.RefreshToken ?? ctx.oidc?.entities.AccessToken;
      const account = parseAccountId(String(token?.accountId ?? ''));
      if (!account) return;
      void recordAudit(deps.prisma, { workspaceId: account.workspaceId, actor: account.userId, action: 'mcp.grant_revoked', target: String(token?.clientId ?? ''), details: { grantId, via: ctx.path } }).catch((error: unknown) => deps.logger.error({ err: error }, 'auditing a grant revocation failed'));
    });
    provider.on('server_error', (_ctx, error) => deps.logger.error({ err: error }, 'oauth server error'));
    return provider;
  }

  async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url!, issuer());
    const request = new Request(url, { headers: headersOf(req), method: 'GET' });
    const details = await provider.interactionDetails(req, res);
    const session = await deps.sessions.read(request);
    if (!session) {
      res.writeHead(303, { Location: `${LOGIN_PATH}?next=${encodeURIComponent(url.pathname)}`, 'Cache-Control': 'no-store' }).end();
      return;
    }
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    const workspaces = await consentWorkspaces(session);

    if (req.method === 'POST') {
      deps.sessions.assertSameOrigin(new Request(url, { headers: headersOf(req), method: 'POST' }));
      const form = new URLSearchParams((req as IncomingMessage & { body?: Buffer }).body?.toString('utf8') ?? '');
      deps.sessions.assertCsrf(session, request, Object.fromEntries(form));
      if (form.get('decision') !== 'allow') {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person declined.' }, { mergeWithLastSubmission: false });
        return;
      }
      const workspace = workspaces.find((candidate) => candidate.id === form.get('workspace'));
      if (!workspace) throw new errors.AccessDenied('choose one of your workspaces on a paid plan');
      const accountId = accountIdOf(session.userId, workspace.id);
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addResourceScope(resource(), MCP_SCOPE);
      const requested = String(details.params.scope ?? '').split(' ').filter((scope) => [MCP_SCOPE, 'offline_access'].includes(scope));
      if (requested.length) grant.addOIDCScope(requested.join(' '));
      const grantId = await grant.save();
      await recordAudit(deps.prisma, { workspaceId: workspace.id, actor: session.userId, action: 'mcp.client_authorized', target: String(details.params.client_id), details: { clientName, grantId } });
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      return;
    }

    const redirectUri = new URL(String(details.params.redirect_uri));
    const issuedAt = Number(client?.metadata().client_id_issued_at);
    const body = consentPage({
      action: url.pathname,
      csrfToken: session.csrfToken,
      email: session.email,
      clientName,
      clientId: String(details.params.client_id),
      redirectHost: redirectUri.host,
      registeredAt: Number.isFinite(issuedAt) ? new Date(issuedAt * 1000) : null,
      stayConnected: client?.grantTypeAllowed('refresh_token') ?? false,
      workspaces,
      selectedWorkspaceId: session.workspaceId,
      paidPlans: MCP_PLANS,
    });
    // The form posts here, and the answer redirects to the client: both must be allowed form targets.
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...pageSecurityHeaders({ formAction: [redirectUri.origin] }) });
    res.end(body.value);
  }

  async function consentWorkspaces(session: { userId: string; ssoWorkspaceId: string | null }) {
    const workspaces = (await workspacesOf(pool, session)).filter((workspace) => MCP_PLANS.includes(workspace.plan));
    const switches = await pool.query<{ id: string; mcp_write_actions: boolean }>('SELECT id, mcp_write_actions FROM workspaces WHERE id = ANY($1::text[])', [workspaces.map((workspace) => workspace.id)]);
    const writes = new Map(switches.rows.map((row) => [row.id, row.mcp_write_actions]));
    return workspaces.map((workspace) => ({ ...workspace, writeActions: writes.get(workspace.id) ?? false }));
  }

  /** OAuth-style JSON errors for the endpoints clients call (RFC 6749 §5.2, RFC 7591 §3.2.2). */
  function oauthError(res: ServerResponse, status: number, error: string, description: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers }).end(JSON.stringify({ error, error_description: description }));
  }

  /** Registration limits (client-registration.ts) and a per-address rate; true when the request may go on to the provider. */
  async function admitRegistration(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<boolean> {
    let metadata: unknown;
    try {
      metadata = JSON.parse(body.toString('utf8'));
    } catch {
      oauthError(res, 400, 'invalid_client_metadata', 'the body must be JSON');
      return false;
    }
    const refusal = registrationProblem(metadata);
    if (refusal) {
      oauthError(res, 400, refusal.error, refusal.description);
      return false;
    }
    const key = `oauth:register:${deps.addressOf(req)}`;
    const counted = (await reserveAttempts(pool, [{ key, policy: REGISTRATION_POLICY }])).get(key)!;
    if (counted.count > REGISTRATION_POLICY.limit) {
      const wait = Math.max(1, Math.ceil((counted.windowEndsAt.getTime() - Date.now()) / 1000));
      oauthError(res, 429, 'rate_limited', `at most ${REGISTRATION_POLICY.limit} registrations an hour from one address`, { 'Retry-After': String(wait) });
      return false;
    }
    return true;
  }

  function envelope(res: ServerResponse, error: ApiError) {
    res.writeHead(error.status, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...error.headers }).end(JSON.stringify({ error: { code: error.code, message: error.message, requestId: newRequestId() } }));
  }

  return {
    resource,
    issuer,
    /** Serves the authorization server's paths; false for every other path. */
    handles: isAuthorizationServerPath,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      try {
        deps.publicOrigin.assertAddressed(req.headers.host, typeof req.headers['x-forwarded-host'] === 'string' ? req.headers['x-forwarded-host'] : null);
        // Bodies are read here, within the one limit; the provider takes the bytes from req.body.
        if (req.method === 'POST') (req as IncomingMessage & { body?: Buffer }).body = await readNodeBody(req, BODY_LIMITS.form);
      } catch (error) {
        if (error instanceof ApiError) return envelope(res, error);
        throw error;
      }
      const path = new URL(req.url!, issuer()).pathname;
      if (path === '/oauth/register' && req.method === 'POST' && !(await admitRegistration(req, res, (req as IncomingMessage & { body: Buffer }).body))) return;
      const current = await (provider ??= build());
      if (path.startsWith(INTERACTION_PREFIX)) {
        try {
          await interaction(current, req, res);
        } catch (error) {
          if (res.headersSent) return;
          const status = (error as { status?: number }).status ?? 400;
          res.writeHead(status < 500 ? status : 400, { 'Content-Type': 'text/html; charset=utf-8', ...pageSecurityHeaders() }).end(page('Authorization error', html`<section><h1>That did not work</h1><p>${(error as Error).message}</p></section>`).value);
        }
        return;
      }
      if (path === '/oauth/token' && Date.now() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        void sweepExpired(pool).catch((error) => deps.logger.warn({ err: error }, 'sweeping expired OAuth rows failed'));
      }
      // RFC 8414 metadata at the root path the MCP authorization spec looks at.
      if (path === '/.well-known/oauth-authorization-server') req.url = '/.well-known/openid-configuration';
      current.callback()(req, res);
    },
    /**
     * The holder of an access token for the MCP resource with their membership, or null
     * (unknown, expired, revoked, another audience, no longer a member). One statement on the
     * provider's own rows: opaque tokens are stored under the hash of their value, revocation deletes them.
     */
    async verifyAccessToken(token: string): Promise<TokenHolder | null> {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      const cached = verified.get(token);
      if (cached && cached.expiresAtMs > Date.now()) return cached;
      const row = (await pool.query<{ payload: { aud?: string | string[]; accountId?: string; clientId?: string; scope?: string; exp?: number }; client_name: string | null; role: Role; plan: Plan; timezone: string; mcp_write_actions: boolean; email: string }>(
        `SELECT t.payload, c.payload->>'client_name' AS client_name, m.role, w.plan, w.timezone, w.mcp_write_actions, u.email
         FROM oauth_models t
         JOIN memberships m ON m.user_id = split_part(t.payload->>'accountId', '.', 1) AND m.workspace_id = split_part(t.payload->>'accountId', '.', 2)
         JOIN workspaces w ON w.id = m.workspace_id
         JOIN users u ON u.id = m.user_id
         LEFT JOIN oauth_models c ON c.model = 'Client' AND c.id = t.payload->>'clientId'
         WHERE t.model = 'AccessToken' AND t.id = $1 AND (t.expires_at IS NULL OR t.expires_at > now())`,
        [storedIdOf('AccessToken', token)],
      )).rows[0];
      if (!row || (row.payload.exp !== undefined && row.payload.exp * 1000 <= Date.now())) return null;
      const audience = row.payload.aud;
      if (audience !== resource() && !(Array.isArray(audience) && audience.includes(resource()))) return null;
      const account = parseAccountId(row.payload.accountId ?? '');
      const clientId = row.payload.clientId;
      if (!account || !clientId) return null;
      const holder = { ...account, clientId, clientName: row.client_name ?? clientId, scopes: (row.payload.scope ?? '').split(' ').filter(Boolean), role: row.role, plan: row.plan, timezone: row.timezone, writeActions: row.mcp_write_actions, email: row.email };
      verified.set(token, { ...holder, expiresAtMs: row.payload.exp ? row.payload.exp * 1000 : Date.now() + TOKEN_CACHE_TTL_MS });
      return holder;
    },
    /** An invalidation message (local or from another instance): OAuth revocations, plan and workspace changes drop the cache. */
    invalidate(target: string) {
      if (target === OAUTH_INVALIDATION_TARGET || target.startsWith('*')) verified.clear();
    },
  };
}

export type AuthorizationServer = ReturnType<typeof createAuthorizationServer>;
