// The parts every door of the app shares, made once per app: the workspace scopes and the data
// cache, web sessions, the workspace lanes, admission, the public origin, metrics, the GraphQL
// context factory and the MCP connector's loader (which hears the same invalidations as API keys).
import type { Logger } from 'pino';
import type { Config } from './config/index.js';
import type { Database } from './db/client.js';
import type { ApiKeyAuthenticator } from './auth/api-keys.js';
import type { RateLimitStore } from './auth/rate-limit-store.js';
import type { SecretBox } from './secrets/secret-box.js';
import type { Mailer } from './mail/mailer.js';
import type { Metrics } from './observability/metrics.js';
import type { ReadinessProbe } from './http/readiness.js';
import { workspaceScopes } from './db/workspace-scope.js';
import { createDataCache } from './db/data-cache.js';
import { buildContext } from './graphql/context.js';
import { createAdmission } from './auth/admission.js';
import { createWorkspaceConcurrency } from './auth/workspace-concurrency.js';
import { createStatementShares } from './db/statement-shares.js';
import type { Principal } from './auth/principal.js';
import { createWebSessions } from './sessions/web-session.js';
import { webhookBacklog } from './webhooks/outbox.js';
import { INVALIDATION_CHANNEL } from './auth/invalidation.js';
import { createConnectorLoader } from './mcp/connector-loader.js';
import { createPublicOrigin } from './http/public-origin.js';
import { createMetrics, poolStats } from './observability/metrics.js';
/** The parts every door shares: sessions, admission, the workspace lanes, the MCP connector's loader. */
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

export function createParts(deps: AppDependencies) {
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
  const admission = createAdmission({
    authenticator: deps.authenticator,
    store: deps.rateLimitStore,
    config,
    sessions,
    concurrency,
    onStoreError: (error: unknown) => logger.error({ err: error }, 'rate-limit store failed'),
  });
  const publicOrigin = createPublicOrigin(config.PUBLIC_BASE_URL, config.PORT, config.TRUST_PROXY);
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
  const contextFor = (principal: Principal, requestId: string, signal?: AbortSignal) =>
    buildContext({ requestId, principal, workspace: scopeOf(principal.workspaceId, signal), config }, dataCache);
  // The MCP token cache listens to the same messages as the API-key cache.
  const { meter } = admission;
  const connector = createConnectorLoader({
    ...deps,
    sessions,
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
  return { dataCache, sessions, concurrency, admission, publicOrigin, metrics, contextFor, connector, notify };
}
export type Parts = ReturnType<typeof createParts>;
