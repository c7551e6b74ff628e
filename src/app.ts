// Composes the service from its parts; server.ts makes it listen. Tests build it in memory
// and call app.fetch(request). Which door a path belongs to is doors/routes.ts's table; what
// every request goes through is doors/request-cycle.ts; how a failure answers, doors/boundary.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { schema } from './graphql/schema.js';
import { favicon, GRAPHIQL_ASSETS_PATH, graphiqlAsset } from './graphql/graphiql.js';
import { createFailedAuthThrottle } from './auth/failed-auth-throttle.js';
import { BASE_PATH, createRestHandler } from './rest/index.js';
import { createIngestHandler } from './doors/ingest.js';
import { ApiError } from './errors/index.js';
import { jsonResponse } from './http/responses.js';
import type { PublicOrigin } from './http/public-origin.js';
import { createReadiness, databaseProbes, readinessResponse, type Readiness } from './http/readiness.js';
import type { StallLimits } from './http/stall-watch.js';
import type { Connection } from './http/connection.js';
import type { Metrics } from './observability/metrics.js';
import { decodePath } from './http/request-path.js';
import { endAuthorizationSessions } from './mcp/oauth/oauth-adapter.js';
import { homeResponse } from './doors/home.js';
import { isAuthorizationServerPath, MCP_PATH } from './mcp/connector.js';
import { checkMethod, doorOf, type DoorName } from './doors/routes.js';
import { createParts, type AppDependencies, type Parts } from './app-parts.js';
import { failureResponse } from './doors/boundary.js';
import { createRequestCycle, type Exchange } from './doors/request-cycle.js';
import { createWebDoor } from './doors/web.js';
import { createGraphQLDoor } from './doors/graphql-door.js';
export type { AppDependencies };
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

type Door = (request: Request, url: URL, exchange: Exchange) => Promise<Response>;

/** Every door of the table (doors/routes.ts) by name. */
function createDoors(deps: AppDependencies, parts: Parts, readiness: Readiness): Record<DoorName, Door> {
  const { config, database, logger } = deps;
  const { publicOrigin, connector, sessions, admission, contextFor, dataCache } = parts;
  /** Absolute URLs live at MCP's paths (the resource, the issuer): only requests addressed to this service. */
  const loadMcp = async (request: Request, url: URL) => {
    publicOrigin.assertAddressed(request.headers.get('host') ?? url.host, request.headers.get('x-forwarded-host'));
    return (await connector.load()).mcp;
  };
  const rest = createRestHandler({
    schema,
    logger,
    contextFor,
    admit: (request) => admission.admit(request),
    cache: dataCache,
    exportShares: {
      instance: config.EXPORT_POOL_SIZE,
      perWorkspace: config.EXPORTS_PER_WORKSPACE,
      perKey: config.EXPORTS_PER_KEY,
    },
    originOf: (request) => publicOrigin.addressedOrigin(request),
  });
  const ingest = createIngestHandler({ config, database, logger });
  return {
    web: createWebDoor({
      ...deps,
      sessions,
      publicOrigin,
      notify: parts.notify,
      onSignedOut: (userId) => endAuthorizationSessions(database.pool, userId),
    }),
    mcp: async (request, url, { requestId }) =>
      (await loadMcp(request, url)).handle(request, requestId, url.pathname.slice(MCP_PATH.length)),
    mcpMetadata: async (request, url) => (await loadMcp(request, url)).metadata(request),
    rest: (request, url, { requestId, connection }) => rest(request, url, requestId, connection),
    graphiqlAssets: async (request, url) => {
      const asset = await graphiqlAsset(request, url.pathname.slice(GRAPHIQL_ASSETS_PATH.length));
      if (!asset) throw new ApiError('not_found', 'No such asset.');
      return asset;
    },
    favicon: () => favicon(),
    graphql: createGraphQLDoor({
      schema,
      admit: admission.admitGraphQL,
      contextFor: (admitted, requestId, signal) => contextFor(admitted.principal, requestId, signal),
      production: config.NODE_ENV === 'production',
      publicOrigin,
      metrics: parts.metrics,
      logger,
      isCookieAuthenticated: (request) => !request.headers.has('authorization') && sessions.tokenOf(request) !== null,
    }),
    ingest: (request, url, { requestId }) => ingest(request, url, requestId),
    home: async (request) => homeResponse(request, BASE_PATH, sessions.carriesSession(request)),
    health: async () => jsonResponse({ status: 'ok' }),
    readiness: async (_request, _url, { requestId }) => readinessResponse(await readiness.report(), requestId),
    none: async () => {
      throw new ApiError('not_found', 'No such path.');
    },
  };
}

export function createApp(deps: AppDependencies): App {
  const { config, database, logger } = deps;
  const parts = createParts(deps);
  const { sessions, connector } = parts;
  const readiness = createReadiness([...databaseProbes(database.pool), ...(deps.readinessProbes ?? [])]);
  const doors = createDoors(deps, parts, readiness);

  async function route(request: Request, url: URL, exchange: Exchange): Promise<Response> {
    // Every door reads a well-formed path: a malformed one is refused here, once (http/request-path.ts).
    decodePath(url.pathname);
    const door = doorOf(url.pathname);
    try {
      checkMethod(door, request.method);
      return await doors[door.door](request, url, exchange);
    } catch (error) {
      const site = { requestId: exchange.requestId, logger, what: `${door.door} request failed` };
      return failureResponse(door.failures, request, error, site, () => sessions.carriesSession(request));
    }
  }

  return {
    publicOrigin: parts.publicOrigin,
    readiness,
    metrics: parts.metrics,
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
    fetch: createRequestCycle({
      logger,
      metrics: parts.metrics,
      trustProxy: config.TRUST_PROXY,
      concurrency: parts.concurrency,
      failedAuth: createFailedAuthThrottle(config.AUTH_FAILURES_PER_ADDRESS),
      route,
    }),
  };
}
