// Composes the service from its parts; server.ts makes it listen. Tests build it in memory
// and call app.fetch(request).
import type { Logger } from 'pino';
import type { Config } from './config/index.js';
import type { Database } from './db/client.js';
import { workspaceScopes } from './db/workspace-scope.js';
import { createDataCache } from './graphql/data-cache.js';
import { schema } from './graphql/schema.js';
import { buildContext } from './graphql/context.js';
import { createGraphQLServer, MAX_GRAPHQL_BODY_BYTES } from './graphql/yoga.js';
import { GRAPHIQL_ASSETS_PATH, graphiqlAsset } from './graphql/graphiql.js';
import { createAdmission } from './auth/admission.js';
import type { ApiKeyAuthenticator } from './auth/api-keys.js';
import type { RateLimitStore } from './auth/rate-limit-store.js';
import { BASE_PATH, createRestHandler } from './rest/handler.js';
import { createIngestHandler } from './ingest/handler.js';
import { ApiError, internalError } from './errors/index.js';
import { errorResponse, jsonResponse, requestIdOf } from './http/responses.js';
import type { Principal } from './auth/principal.js';

export interface AppDependencies {
  config: Config;
  database: Database;
  authenticator: ApiKeyAuthenticator;
  rateLimitStore: RateLimitStore;
  logger: Logger;
}

export interface App {
  fetch(request: Request): Promise<Response>;
}

const READY_TIMEOUT_MS = 2_000;

export function createApp(deps: AppDependencies): App {
  const { config, database, logger } = deps;
  const scopeOf = workspaceScopes(database.readPool, database.prisma);
  const dataCache = createDataCache(config.DATA_CACHE_MAX_BYTES);
  const admit = createAdmission({
    authenticator: deps.authenticator,
    store: deps.rateLimitStore,
    config,
    onStoreError: (error) => logger.error({ err: error }, 'rate-limit store failed'),
  });
  const requestIds = new WeakMap<Request, string>();
  const contextFor = (principal: Principal, requestId: string) =>
    buildContext({ requestId, principal, workspace: scopeOf(principal.workspaceId), config }, dataCache);

  const rest = createRestHandler({
    schema,
    logger,
    admit: (request) => admit(request),
    contextFor,
    cache: dataCache,
    ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
  });
  const graphqlHeaders = new WeakMap<Request, Record<string, string>>();
  const yoga = createGraphQLServer({
    schema,
    admit: async (request) => {
      const admitted = await admit(request);
      graphqlHeaders.set(request, admitted.headers);
      return admitted;
    },
    contextFor: (admitted, request) => contextFor(admitted.principal, requestIds.get(request) ?? requestIdOf(request)),
    production: config.NODE_ENV === 'production',
  });
  const ingest = createIngestHandler({ config, database, logger });

  async function ready(): Promise<boolean> {
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS).unref());
    const probe = database.pool.query('SELECT 1').then(() => true, () => false);
    return Promise.race([probe, timeout]);
  }

  async function route(request: Request, url: URL, requestId: string): Promise<Response> {
    const path = url.pathname;
    if (path === BASE_PATH || path.startsWith(`${BASE_PATH}/`)) return rest(request, url, requestId);
    if (path.startsWith(GRAPHIQL_ASSETS_PATH)) return (await graphiqlAsset(path.slice(GRAPHIQL_ASSETS_PATH.length))) ?? errorResponse(new ApiError('not_found', 'No such asset.'), requestId);
    if (path === '/graphql') {
      if (Number(request.headers.get('content-length') ?? 0) > MAX_GRAPHQL_BODY_BYTES) {
        return errorResponse(new ApiError('payload_too_large', `GraphQL request bodies are limited to ${MAX_GRAPHQL_BODY_BYTES} bytes.`), requestId);
      }
      requestIds.set(request, requestId);
      const response = await yoga.fetch(request);
      for (const [name, value] of Object.entries(graphqlHeaders.get(request) ?? {})) response.headers.set(name, value);
      return response;
    }
    if (path.startsWith('/internal/ingest/')) return ingest(request, url, requestId);
    if (path === '/healthz') return jsonResponse({ status: 'ok' });
    if (path === '/readyz') {
      return (await ready()) ? jsonResponse({ status: 'ready' }) : errorResponse(new ApiError('unavailable', 'The database is not reachable.', { headers: { 'Retry-After': '2' } }), requestId);
    }
    return errorResponse(new ApiError('not_found', 'No such path.'), requestId);
  }

  return {
    async fetch(request) {
      const started = performance.now();
      const requestId = requestIdOf(request);
      const url = new URL(request.url);
      let response: Response;
      try {
        response = await route(request, url, requestId);
      } catch (error) {
        logger.error({ err: error, requestId }, 'unhandled error');
        response = errorResponse(internalError(), requestId);
      }
      response.headers.set('X-Request-Id', requestId);
      logger.info({ requestId, method: request.method, path: url.pathname, status: response.status, ms: Math.round(performance.now() - started) }, 'request');
      return response;
    },
  };
}
