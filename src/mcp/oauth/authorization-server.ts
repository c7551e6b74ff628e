// The MCP connector's OAuth 2.1 authorization server, composed: oidc-provider configured in
// oauth-provider.ts (stored without usable credentials, oauth-adapter.ts), the sign-in and
// consent step (consent.ts), registration limits (client-registration.ts) and access-token
// verification (access-tokens.ts). One issuer: PUBLIC_BASE_URL (or the listening address in
// development); a request for another Host is refused before anything is built. oidc-provider
// is a Koa app, so it is served from node:http directly; bodies are read here, within the one
// byte limit.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { html, page, pageSecurityHeaders } from '../../http/html.js';
import { BODY_LIMITS, readNodeBody } from '../../http/body.js';
import type { PublicOrigin } from '../../http/public-origin.js';
import { ApiError } from '../../errors/index.js';
import { JSON_CONTENT_TYPE, newRequestId } from '../../http/responses.js';
import { decodePath } from '../../http/request-path.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { WebSessions } from '../../sessions/index.js';
import { reserveAttempts, type CounterPolicy } from '../../db/attempt-counters.js';
import { sweepExpired } from './oauth-adapter.js';
import { registrableMetadata, registrationProblem } from './client-registration.js';
import { createConsent, INTERACTION_PREFIX } from './consent.js';
import { createOAuthProvider } from './oauth-provider.js';
import { MCP_SCOPE } from './oauth-accounts.js';
import { explicitScopes } from '../tools/toolsets.js';
import { createAccessTokenVerifier } from './access-tokens.js';
import { isAuthorizationServerPath, MCP_PATH, OAUTH_INVALIDATION_TARGET } from '../connector.js';

/** Dynamic registrations per caller address. */
const REGISTRATION_POLICY: CounterPolicy = { limit: 10, windowMs: 3_600_000 };
// Expired codes, tokens and interactions are swept at most this often, on the way through a token request.
const SWEEP_EVERY_MS = 10 * 60_000;

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

export function createAuthorizationServer(deps: AuthorizationServerDeps) {
  const { pool } = deps;
  const issuer = () => deps.publicOrigin.value;
  const resource = () => `${issuer()}${MCP_PATH}`;
  const tokens = createAccessTokenVerifier(pool, resource);
  const consent = createConsent({ pool, prisma: deps.prisma, sessions: deps.sessions, issuer, resource });
  let provider: Promise<Provider> | null = null;
  let lastSweep = 0;
  const build = () =>
    createOAuthProvider({
      ...deps,
      issuer: issuer(),
      resource: resource(),
      onRevocation: () => {
        tokens.clear();
        void deps
          .notify(OAUTH_INVALIDATION_TARGET)
          .catch((error) => deps.logger.error({ err: error }, 'announcing an OAuth revocation failed'));
      },
    });

  /** OAuth-style JSON errors for the endpoints clients call (RFC 6749 §5.2, RFC 7591 §3.2.2). */
  function oauthError(
    res: ServerResponse,
    status: number,
    error: string,
    description: string,
    headers: Record<string, string> = {},
  ) {
    res
      .writeHead(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers })
      .end(JSON.stringify({ error, error_description: description }));
  }

  /**
   * Registration limits (client-registration.ts) and a per-address rate; true when the request may go
   * on to the provider.
   */
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
    (req as IncomingMessage & { body: Buffer }).body = Buffer.from(
      JSON.stringify(registrableMetadata(metadata as Record<string, unknown>)),
    );
    const key = `oauth:register:${deps.addressOf(req)}`;
    const counted = (await reserveAttempts(pool, [{ key, policy: REGISTRATION_POLICY }])).get(key)!;
    if (counted.count > REGISTRATION_POLICY.limit) {
      const wait = Math.max(1, Math.ceil((counted.windowEndsAt.getTime() - Date.now()) / 1000));
      oauthError(
        res,
        429,
        'rate_limited',
        `at most ${REGISTRATION_POLICY.limit} registrations an hour from one address`,
        { 'Retry-After': String(wait) },
      );
      return false;
    }
    return true;
  }

  function envelope(res: ServerResponse, error: ApiError) {
    res
      .writeHead(error.status, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...error.headers })
      .end(JSON.stringify({ error: { code: error.code, message: error.message, requestId: newRequestId() } }));
  }

  return {
    resource,
    issuer,
    /** Serves the authorization server's paths; false for every other path. */
    handles: isAuthorizationServerPath,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      try {
        deps.publicOrigin.assertAddressed(
          req.headers.host,
          typeof req.headers['x-forwarded-host'] === 'string' ? req.headers['x-forwarded-host'] : null,
        );
        // The same refusal of a malformed path as the app's doors (the provider's router would answer it its own way).
        decodePath(new URL(req.url!, issuer()).pathname);
        // Bodies are read here, within the one limit; the provider takes the bytes from req.body.
        if (req.method === 'POST')
          (req as IncomingMessage & { body?: Buffer }).body = await readNodeBody(req, BODY_LIMITS.form);
      } catch (error) {
        if (error instanceof ApiError) return envelope(res, error);
        throw error;
      }
      const path = new URL(req.url!, issuer()).pathname;
      if (
        path === '/oauth/register' &&
        req.method === 'POST' &&
        !(await admitRegistration(req, res, (req as IncomingMessage & { body: Buffer }).body))
      )
        return;
      const current = await (provider ??= build());
      if (path.startsWith(INTERACTION_PREFIX)) {
        try {
          await consent.interaction(current, req, res);
        } catch (error) {
          if (res.headersSent) return;
          const status = (error as { status?: number }).status ?? 400;
          res
            .writeHead(status < 500 ? status : 400, {
              'Content-Type': 'text/html; charset=utf-8',
              ...pageSecurityHeaders(),
            })
            .end(
              page(
                'Authorization error',
                html`<section><h1>That did not work</h1><p>${(error as Error).message}</p></section>`,
              ).value,
            );
        }
        return;
      }
      if (path === '/oauth/token' && Date.now() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        void sweepExpired(pool).catch((error) =>
          deps.logger.warn({ err: error }, 'sweeping expired OAuth rows failed'),
        );
      }
      // A request without `scope` gets the default one (RFC 6749 §3.3): without it the provider
      // granted nothing and answered access_denied to clients that send none. A plain `mcp` is
      // spelled out as the toolset and write scopes it stands for, which the consent can narrow.
      if (path === '/oauth/authorize' && req.method === 'GET') {
        const url = new URL(req.url!, issuer());
        const scope = explicitScopes(url.searchParams.get('scope') ?? MCP_SCOPE);
        if (scope !== url.searchParams.get('scope')) {
          url.searchParams.set('scope', scope);
          req.url = `${url.pathname}${url.search}`;
        }
      }
      // RFC 8414 metadata at the root path the MCP authorization spec looks at.
      if (path === '/.well-known/oauth-authorization-server') req.url = '/.well-known/openid-configuration';
      current.callback()(req, res);
    },
    verifyAccessToken: tokens.verify,
    invalidate: tokens.invalidate,
  };
}

export type AuthorizationServer = ReturnType<typeof createAuthorizationServer>;
