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
import { writeNodeAnswer, writeResponse } from './node-requests.js';
import { requestIdOfNode } from '../../http/responses.js';
import { oauthFailure } from '../../doors/index.js';
import { decodePath } from '../../http/request-path.js';
import { checkBodyText, checkedSearchParams } from '../../http/text-input.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { WebSessions } from '../../sessions/index.js';
import { sweepExpired } from './oauth-adapter.js';
import { admitRegistration } from './registration-gate.js';
import { mcpErrorResponse } from '../errors.js';
import { createConsent, INTERACTION_PREFIX } from './consent.js';
import { createOAuthProvider, ROUTES } from './oauth-provider.js';
import { MCP_SCOPE } from './oauth-accounts.js';
import { explicitScopes } from '../tools/toolsets.js';
import { createAccessTokenVerifier } from './access-tokens.js';
import { isAuthorizationServerPath, MCP_PATH, OAUTH_INVALIDATION_TARGET } from '../connector.js';

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

/** The sign-in and consent step's failure, as a page: the person is in a browser. */
function interactionErrorPage(res: ServerResponse, error: unknown) {
  const status = (error as { status?: number }).status ?? 400;
  res
    .writeHead(status < 500 ? status : 400, { 'Content-Type': 'text/html; charset=utf-8', ...pageSecurityHeaders() })
    .end(
      page(
        'Authorization error',
        html`<section>
          <h1>That did not work</h1>
          <p>${(error as Error).message}</p>
        </section>`,
      ).value,
    );
}

/**
 * The checks of every request before the provider sees it: the one issuer's Host, a path and text
 * the app's doors would accept, and a POST body within the one limit (the provider takes the bytes
 * from req.body). The refusal, or null.
 */
async function refusalOf(deps: AuthorizationServerDeps, req: IncomingMessage): Promise<ApiError | null> {
  try {
    deps.publicOrigin.assertAddressed(
      req.headers.host,
      typeof req.headers['x-forwarded-host'] === 'string' ? req.headers['x-forwarded-host'] : null,
    );
    // The same refusal of a malformed path as the app's doors (the provider's router would answer it its own way).
    const url = new URL(req.url!, deps.publicOrigin.value);
    decodePath(url.pathname);
    // And of text PostgreSQL cannot store: a client_id holding NUL made the provider's lookup fail with a 500.
    checkedSearchParams(url.search);
    if (req.method === 'POST') {
      const body = await readNodeBody(req, BODY_LIMITS.form);
      (req as IncomingMessage & { body?: Buffer }).body = body;
      checkBodyText(req.headers['content-type'], body);
    }
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/**
 * The endpoints a client POSTs to (RFC 6749 §3.2, RFC 7009 §2.1, RFC 7591 §3.1) and the metadata it reads (RFC 8414,
 * OpenID discovery), with the methods each takes: OPTIONS where the provider answers a browser's CORS preflight. The
 * provider's router answers any other method 404, as if the endpoint did not exist.
 */
const ENDPOINT_METHODS: Record<string, readonly string[]> = {
  [ROUTES.token]: ['POST', 'OPTIONS'],
  [ROUTES.registration]: ['POST'],
  [ROUTES.revocation]: ['POST', 'OPTIONS'],
  '/.well-known/oauth-authorization-server': ['GET', 'HEAD', 'OPTIONS'],
  '/.well-known/openid-configuration': ['GET', 'HEAD', 'OPTIONS'],
};

/** A method an endpoint does not take: 405 with Allow, in OAuth's error shape (what its clients read). */
function methodRefusal(path: string, method = 'GET') {
  const methods = ENDPOINT_METHODS[path];
  if (!methods || methods.includes(method)) return null;
  const description = `${method.slice(0, 16)} is not allowed on ${path}; send a ${methods[0]}.`;
  return oauthFailure(405, 'invalid_request', description, { Allow: methods.join(', ') });
}

/**
 * A request for the provider as the MCP authorization spec's clients send it: an authorization
 * request without `scope` gets the default one (RFC 6749 §3.3: without it the provider granted
 * nothing and answered access_denied), a plain `mcp` spelled out as the toolset and write scopes
 * it stands for (which the consent can narrow), and RFC 8414 metadata at the root path.
 */
function asProviderRequest(req: IncomingMessage, path: string, issuer: string) {
  if (path === '/oauth/authorize' && req.method === 'GET') {
    const url = new URL(req.url!, issuer);
    const scope = explicitScopes(url.searchParams.get('scope') ?? MCP_SCOPE);
    if (scope !== url.searchParams.get('scope')) {
      url.searchParams.set('scope', scope);
      req.url = `${url.pathname}${url.search}`;
    }
  }
  if (path === '/.well-known/oauth-authorization-server') req.url = '/.well-known/openid-configuration';
}

export function createAuthorizationServer(deps: AuthorizationServerDeps) {
  const { pool } = deps;
  const issuer = () => deps.publicOrigin.value;
  const resource = () => `${issuer()}${MCP_PATH}`;
  const tokens = createAccessTokenVerifier(pool, resource);
  const consent = createConsent({ pool, sessions: deps.sessions, issuer, resource });
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
  /** Expired codes, tokens and interactions go at most every SWEEP_EVERY_MS, on the way through a token request. */
  const sweep = () => {
    if (Date.now() - lastSweep <= SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    void sweepExpired(pool).catch((error) => deps.logger.warn({ err: error }, 'sweeping expired OAuth rows failed'));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = await refusalOf(deps, req);
    if (refusal)
      return writeResponse(res, mcpErrorResponse(refusal, requestIdOfNode(req), { 'Cache-Control': 'no-store' }));
    const path = new URL(req.url!, issuer()).pathname;
    const wrongMethod = methodRefusal(path, req.method);
    if (wrongMethod) return void writeNodeAnswer(res, wrongMethod);
    if (path === '/oauth/register' && req.method === 'POST' && !(await admitRegistration(deps, req, res))) return;
    const current = await (provider ??= build());
    if (path.startsWith(INTERACTION_PREFIX)) {
      try {
        await consent.interaction(current, req, res);
      } catch (error) {
        if (!res.headersSent) interactionErrorPage(res, error);
      }
      return;
    }
    if (path === '/oauth/token') sweep();
    asProviderRequest(req, path, issuer());
    current.callback()(req, res);
  }

  return {
    resource,
    issuer,
    /** Serves the authorization server's paths; false for every other path. */
    handles: isAuthorizationServerPath,
    handle,
    verifyAccessToken: tokens.verify,
    invalidate: tokens.invalidate,
  };
}

export type AuthorizationServer = ReturnType<typeof createAuthorizationServer>;
