// Composes the service from its parts; server.ts makes it listen. Tests build it in memory
// and call app.fetch(request).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './config/index.js';
import type { Database } from './db/client.js';
import { workspaceScopes } from './db/workspace-scope.js';
import { createDataCache } from './db/data-cache.js';
import { schema } from './graphql/schema.js';
import { buildContext } from './graphql/context.js';
import type { GraphQLExchange } from './graphql/yoga.js';
import { favicon, GRAPHIQL_ASSETS_PATH, GRAPHIQL_PAGE_POLICY, graphiqlAsset } from './graphql/graphiql.js';
import { pageSecurityHeaders } from './http/html.js';
import { createAdmission } from './auth/admission.js';
import { createWorkspaceConcurrency } from './auth/workspace-concurrency.js';
import { createStatementShares } from './db/statement-shares.js';
import { createFailedAuthThrottle } from './auth/failed-auth-throttle.js';
import type { ApiKeyAuthenticator } from './auth/api-keys.js';
import type { RateLimitStore } from './auth/rate-limit-store.js';
import { BASE_PATH, createRestHandler } from './rest/handler.js';
import { createIngestHandler } from './ingest/handler.js';
import { ApiError, fromUsageError, internalError, toApiError, UsageError } from './errors/index.js';
import { errorResponse, jsonResponse, requestIdOf, Response } from './http/responses.js';
import type { Principal } from './auth/principal.js';
import type { SecretBox } from './secrets/secret-box.js';
import { createWebSessions, webErrorResponse } from './sessions/web-session.js';
import { createSessionHandler } from './sessions/handler.js';
import { SETTINGS_PATH } from './settings/paths.js';
import { createPublicOrigin, type PublicOrigin } from './http/public-origin.js';
import { BODY_LIMITS, bounded, closesAfterUnreadBody } from './http/body.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import {
  createReadiness,
  databaseProbes,
  readinessResponse,
  type Readiness,
  type ReadinessProbe,
} from './http/readiness.js';
import { inRequestSpan } from './observability/tracing.js';
import type { StallLimits } from './http/stall-watch.js';
import type { Connection } from './http/connection.js';
import { createMetrics, poolStats, type Metrics } from './observability/metrics.js';
import { routeTemplateOf } from './observability/route-templates.js';
import { v1RouteTemplate } from './rest/routes.js';
import { webhookBacklog } from './webhooks/outbox.js';
import { clientAddress } from './http/client-address.js';
import { decodePath } from './http/request-path.js';
import { identityProviderFetch } from './sso/connections.js';
import { endAuthorizationSessions } from './mcp/oauth/oauth-adapter.js';
import { createSettingsHandler } from './settings/handler.js';
import { createViewPagesHandler } from './views/handler.js';
import { homeResponse } from './home/handler.js';
import { createSso } from './sso/oidc.js';
import { createSsoHandler } from './sso/handler.js';
import { INVALIDATION_CHANNEL } from './auth/invalidation.js';
import { isAuthorizationServerPath, MCP_PATH, PROTECTED_RESOURCE_PATHS } from './mcp/connector.js';
import { createConnectorLoader } from './mcp/connector-loader.js';

/** nginx's status for a request whose client closed the connection before the answer: kept apart from 5xx in logs and metrics. */
const CLIENT_CLOSED_REQUEST = 499;

export interface AppDependencies {
  config: Config;
  database: Database;
  authenticator: ApiKeyAuthenticator;
  rateLimitStore: RateLimitStore;
  logger: Logger;
  /** Seals webhook and OIDC client secrets (APP_SECRET_KEY). */
  box: SecretBox;
  /** Tells every instance that a key or a workspace's plan changed; the default uses PostgreSQL NOTIFY. */
  notify?: (target: string) => Promise<void>;
  /** Outgoing mail; the default sends through SMTP_URL (or logs, in development). */
  mail?: Mailer;
  /** The instance's metrics (one registry per app; server.ts serves them on METRICS_PORT). */
  metrics?: Metrics;
  /** Dependencies beyond the database that readiness checks (Redis, when configured). */
  readinessProbes?: ReadinessProbe[];
}

export interface App {
  fetch(request: Request, connection?: Connection): Promise<Response>;
  /** A message from another instance: a key, plan or OAuth grant changed; cached copies go. */
  invalidate(target: string): void;
  /** The service's one origin (PUBLIC_BASE_URL, or the listening address once known). */
  publicOrigin: PublicOrigin;
  /** What /readyz reports; `drain()` on SIGTERM. */
  readiness: Readiness;
  metrics: Metrics;
  /** When a response whose client takes no bytes is cut (http/stall-watch.ts). */
  responseLimits: StallLimits;
  /** How long a whole request may take to arrive (REQUEST_TIMEOUT_SECONDS); the node server answers 408 past it. */
  requestTimeoutMs: number;
  /** How long a connection answered 429 is not read again (http/refusal-pause.ts). */
  refusedConnectionPauseMs: number;
  /** Paths served from node:http directly: the OAuth authorization server (oidc-provider is a Koa app). */
  node: { handles(path: string): boolean; handle(req: IncomingMessage, res: ServerResponse): Promise<void> };
}

export function createApp(deps: AppDependencies): App {
  const { config, database, logger } = deps;
  const scopeOf = workspaceScopes(
    database.readPool,
    database.streamPool,
    createStatementShares(config.DATABASE_STATEMENTS_PER_WORKSPACE),
  );
  const dataCache = createDataCache(config.DATA_CACHE_MAX_BYTES);
  const sessions = createWebSessions(config, database.pool);
  const concurrency = createWorkspaceConcurrency({
    perWorkspace: config.WORKSPACE_MAX_CONCURRENT_REQUESTS,
    maxWaiting: config.WORKSPACE_MAX_WAITING_REQUESTS,
    maxWaitMs: config.WORKSPACE_MAX_WAIT_MS,
  });
  const failedAuth = createFailedAuthThrottle(config.AUTH_FAILURES_PER_ADDRESS);
  const onStoreError = (error: unknown) => logger.error({ err: error }, 'rate-limit store failed');
  const { admit, admitGraphQL, meter } = createAdmission({
    authenticator: deps.authenticator,
    store: deps.rateLimitStore,
    config,
    sessions,
    concurrency,
    onStoreError,
  });
  const publicOrigin = createPublicOrigin(config.PUBLIC_BASE_URL, config.PORT, config.TRUST_PROXY);
  const mail = deps.mail ?? createMailer(config, logger);
  const metrics = deps.metrics ?? createMetrics({ enabled: config.METRICS_PORT !== 0 });
  metrics.watch({
    pools: () => ({
      primary: poolStats(database.pool),
      read: poolStats(database.readPool),
      stream: poolStats(database.streamPool),
    }),
    dataCache: () => ({
      hits: dataCache.hits,
      misses: dataCache.misses,
      bytes: dataCache.bytes,
      entries: dataCache.size,
    }),
    webhookBacklog: () => webhookBacklog(database.pool),
    requests: () => concurrency.totals(),
  });
  const contextFor = (principal: Principal, requestId: string) =>
    buildContext({ requestId, principal, workspace: scopeOf(principal.workspaceId), config }, dataCache);
  // The MCP token cache listens to the same messages as the API-key cache.
  const connector = createConnectorLoader({
    config,
    database,
    box: deps.box,
    sessions,
    logger,
    notify: (target) => notify(target),
    publicOrigin,
    contextFor,
    metrics,
    meter,
  });
  const notify = async (target: string) => {
    deps.authenticator.invalidate(target);
    connector.invalidate(target);
    await (deps.notify
      ? deps.notify(target)
      : database.pool.query('SELECT pg_notify($1, $2)', [INVALIDATION_CHANNEL, target]));
  };
  const sessionRoutes = createSessionHandler({
    pool: database.pool,
    sessions,
    mail,
    publicOrigin,
    onSignedOut: (userId) => endAuthorizationSessions(database.pool, userId),
    onBackgroundError: (error) => logger.error({ err: error }, 'work after a sign-in or password-reset answer failed'),
  });
  const settingsRoutes = createSettingsHandler({
    config,
    prisma: database.prisma,
    pool: database.pool,
    box: deps.box,
    sessions,
    notify,
    publicOrigin,
  });
  const viewPages = createViewPagesHandler({ pool: database.readPool, sessions });
  const sso = createSso({
    prisma: database.prisma,
    pool: database.pool,
    box: deps.box,
    cookiePolicy: sessions.cookiePolicy,
    allowHttpIssuers: config.OIDC_ALLOW_HTTP_ISSUERS,
    fetch: identityProviderFetch(config),
    logger,
  });
  const ssoRoutes = createSsoHandler({
    sso,
    pool: database.pool,
    sessions,
    cookiePolicy: sessions.cookiePolicy,
    publicOrigin,
  });

  const rest = createRestHandler({
    schema,
    logger,
    contextFor,
    admit: (request) => admit(request),
    cache: dataCache,
    exportShares: {
      instance: config.EXPORT_POOL_SIZE,
      perWorkspace: config.EXPORTS_PER_WORKSPACE,
      perKey: config.EXPORTS_PER_KEY,
    },
    originOf: (request) => publicOrigin.addressedOrigin(request),
  });
  // /graphql's server (Yoga, its plugins and executor: ~4.6 MB of heap) is loaded on its first
  // request, like the MCP connector: an instance that serves only v1 never holds it, and every MB
  // of live heap raises the old generation's limit by more than that (test/bench/README.md,
  // "2026-11-25, fifth session").
  const loadGraphQLServer = async () => {
    const { createGraphQLServer } = await import('./graphql/yoga.js');
    return createGraphQLServer({
      schema,
      admit: admitGraphQL,
      contextFor: (admitted, requestId) => contextFor(admitted.principal, requestId),
      production: config.NODE_ENV === 'production',
      publicOrigin,
      metrics,
      logger,
      isCookieAuthenticated: (request) => !request.headers.has('authorization') && sessions.tokenOf(request) !== null,
    });
  };
  let graphqlServer: ReturnType<typeof loadGraphQLServer> | null = null;
  const ingest = createIngestHandler({ config, database, logger });

  const readiness = createReadiness([...databaseProbes(database.pool), ...(deps.readinessProbes ?? [])]);

  /** The web app's pages and their JSON twins: sign-in, single sign-on, settings, the views. */
  async function web(request: Request, url: URL, requestId: string, address: string): Promise<Response> {
    try {
      if (url.pathname === '/app' || url.pathname === '/app/')
        return new Response(null, { status: 303, headers: { Location: SETTINGS_PATH } });
      const response =
        (await sessionRoutes(request, url.pathname, address)) ??
        (await ssoRoutes(request, url)) ??
        (await settingsRoutes(request, url.pathname)) ??
        (await viewPages(request, url.pathname));
      return (
        response ??
        webErrorResponse(
          request,
          new ApiError('not_found', 'No such page.'),
          requestId,
          sessions.carriesSession(request),
        )
      );
    } catch (error) {
      const apiError =
        error instanceof UsageError
          ? fromUsageError(error)
          : toApiError(error, (cause) => logger.error({ err: cause, requestId }, 'web request failed'));
      return webErrorResponse(request, apiError, requestId, sessions.carriesSession(request));
    }
  }

  async function route(
    request: Request,
    url: URL,
    requestId: string,
    address: string,
    connection: Connection,
  ): Promise<Response> {
    const path = url.pathname;
    // Every door below reads a well-formed path: a malformed one is refused here, once (http/request-path.ts).
    decodePath(path);
    if (path === '/app' || path.startsWith('/app/')) return web(request, url, requestId, address);
    if (path === MCP_PATH || path.startsWith(`${MCP_PATH}/`) || PROTECTED_RESOURCE_PATHS.includes(path)) {
      // Absolute URLs live here (the resource, the issuer): only requests addressed to this service.
      publicOrigin.assertAddressed(request.headers.get('host') ?? url.host, request.headers.get('x-forwarded-host'));
      const { mcp } = await connector.load();
      return PROTECTED_RESOURCE_PATHS.includes(path)
        ? mcp.metadata()
        : mcp.handle(request, requestId, path.slice(MCP_PATH.length));
    }
    if (path === BASE_PATH || path.startsWith(`${BASE_PATH}/`)) return rest(request, url, requestId, connection);
    if (path.startsWith(GRAPHIQL_ASSETS_PATH))
      return (
        (await graphiqlAsset(request, path.slice(GRAPHIQL_ASSETS_PATH.length))) ??
        errorResponse(new ApiError('not_found', 'No such asset.'), requestId)
      );
    // Browsers ask every origin for /favicon.ico (the API reference and the web pages name none).
    if (path === '/favicon.ico') return favicon();
    if (path === '/graphql') {
      const graphqlRequest = await bounded(request, BODY_LIMITS.graphql);
      const exchange: GraphQLExchange = { requestId, responseHeaders: {} };
      const response = await (await (graphqlServer ??= loadGraphQLServer())).fetch(graphqlRequest, exchange);
      for (const [name, value] of Object.entries(exchange.responseHeaders)) response.headers.set(name, value);
      if (response.headers.get('content-type')?.startsWith('text/html'))
        for (const [name, value] of Object.entries(pageSecurityHeaders(GRAPHIQL_PAGE_POLICY)))
          response.headers.set(name, value);
      return response;
    }
    if (path.startsWith('/internal/ingest/')) return ingest(request, url, requestId);
    if (path === '/') return homeResponse(request, BASE_PATH, sessions.carriesSession(request));
    if (path === '/healthz') return jsonResponse({ status: 'ok' });
    if (path === '/readyz') return readinessResponse(await readiness.report(), requestId);
    return errorResponse(new ApiError('not_found', 'No such path.'), requestId);
  }

  return {
    publicOrigin,
    readiness,
    metrics,
    responseLimits: {
      stallMs: config.RESPONSE_STALL_SECONDS * 1000,
      unsentMaxBytes: config.RESPONSE_UNSENT_MAX_BYTES,
      unsentWorkspaceMaxBytes: Math.min(config.RESPONSE_UNSENT_WORKSPACE_MAX_BYTES, config.RESPONSE_UNSENT_MAX_BYTES),
    },
    requestTimeoutMs: config.REQUEST_TIMEOUT_SECONDS * 1000,
    refusedConnectionPauseMs: config.REFUSED_CONNECTION_PAUSE_MS,
    node: {
      handles: isAuthorizationServerPath,
      handle: async (req, res) => (await connector.load()).authorizationServer.handle(req, res),
    },
    invalidate: (target) => {
      deps.authenticator.invalidate(target);
      connector.invalidate(target);
    },
    async fetch(request, connection = {}) {
      const started = performance.now();
      const requestId = requestIdOf(request);
      const url = new URL(request.url);
      const template = routeTemplateOf(url.pathname, v1RouteTemplate);
      let response: Response;
      const address = clientAddress(
        request.headers.get('x-forwarded-for'),
        connection.remoteAddress,
        config.TRUST_PROXY,
      );
      const tracked = concurrency.track(async () =>
        inRequestSpan(request, template, requestId, () => route(request, url, requestId, address, connection)),
      );
      void (connection.ended ?? tracked.result.catch(() => {})).then(tracked.release);
      try {
        response = await tracked.result;
        const workspaceId = tracked.workspaceId();
        if (workspaceId) connection.attribute?.(workspaceId);
      } catch (error) {
        if (error instanceof ApiError) response = errorResponse(error, requestId);
        // The client went away (or was cut for not reading): nobody reads this answer, and it is no server error.
        else if (request.signal.aborted) response = new Response(null, { status: CLIENT_CLOSED_REQUEST });
        else {
          logger.error({ err: error, requestId }, 'unhandled error');
          response = errorResponse(internalError(), requestId);
        }
      }
      response = await failedAuth.answer(request, response, address, requestId);
      response.headers.set('X-Request-Id', requestId);
      // An answer given without reading a chunked or large body (a 401, a 405) closes the
      // connection rather than reading the rest to keep it (see http/node-server.ts).
      if (closesAfterUnreadBody(request)) response.headers.set('Connection', 'close');
      const seconds = (performance.now() - started) / 1000;
      metrics.observeRequest(template, request.method, response.status, seconds);
      logger.info(
        {
          requestId,
          method: request.method,
          path: url.pathname,
          status: response.status,
          ms: Math.round(seconds * 1000),
        },
        'request',
      );
      return response;
    },
  };
}
