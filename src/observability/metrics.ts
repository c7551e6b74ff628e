// Prometheus metrics (prom-client), one registry per app instance. Every label has a bounded
// set of values: routes are templates (never raw paths or ids), methods and tools come from
// fixed lists, statuses are HTTP's. Gauges of the database pool, the data cache and the
// webhook outbox are read when Prometheus scrapes, not kept up to date on the hot path.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
// From a cached 304 (≈1 ms) to a cold report over years of facts (seconds).
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface MetricSources {
  pools(): Record<string, PoolStats>;
  /** The API instances' data cache (the worker has none). */
  dataCache?(): { hits: number; misses: number; bytes: number; entries: number };
  webhookBacklog(): Promise<{ undispatched: number; pending: number; oldestPendingSeconds: number }>;
}

/** A pg pool's counts, as the pool gauge reads them. */
export const poolStats = (pool: { totalCount: number; idleCount: number; waitingCount: number }): PoolStats => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });

/** The instance's metrics; with `enabled: false` (METRICS_PORT=0) they record nothing and cost nothing. */
export function createMetrics(options: { enabled?: boolean } = {}) {
  const registry = new Registry();
  if (options.enabled === false) return disabledMetrics(registry);
  collectDefaultMetrics({ register: registry, prefix: 'signalboard_' });
  const registers = [registry];
  const requests = new Counter({ name: 'signalboard_http_requests_total', help: 'HTTP requests by route template, method and status.', labelNames: ['route', 'method', 'status'], registers });
  const duration = new Histogram({ name: 'signalboard_http_request_duration_seconds', help: 'HTTP request latency by route template and method.', labelNames: ['route', 'method'], buckets: LATENCY_BUCKETS, registers });
  const toolCalls = new Counter({ name: 'signalboard_mcp_tool_calls_total', help: 'MCP tool calls by tool and outcome (ok, error).', labelNames: ['tool', 'outcome'], registers });
  const operations = new Counter({ name: 'signalboard_graphql_operations_total', help: 'GraphQL operations executed at /graphql, by operation (the web app\'s named operations; others are "other") and outcome.', labelNames: ['operation', 'outcome'], registers });
  const operationDuration = new Histogram({ name: 'signalboard_graphql_operation_duration_seconds', help: 'GraphQL execution time by operation.', labelNames: ['operation'], buckets: LATENCY_BUCKETS, registers });
  const deliveries = new Counter({ name: 'signalboard_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome.', labelNames: ['outcome'], registers });

  return {
    contentType: registry.contentType,
    text: () => registry.metrics(),
    observeRequest(route: string, method: string, status: number, seconds: number) {
      const verb = METHODS.has(method) ? method : 'OTHER';
      requests.inc({ route, method: verb, status: String(status) });
      duration.observe({ route, method: verb }, seconds);
    },
    toolCall(tool: string, outcome: 'ok' | 'error') {
      toolCalls.inc({ tool, outcome });
    },
    graphqlOperation(operation: string, outcome: 'ok' | 'error', seconds: number) {
      operations.inc({ operation, outcome });
      operationDuration.observe({ operation }, seconds);
    },
    webhookDelivery(outcome: 'succeeded' | 'retry' | 'failed' | 'gone') {
      deliveries.inc({ outcome });
    },
    /** Gauges read at scrape time from their sources. */
    watch(sources: MetricSources) {
      new Gauge({
        name: 'signalboard_db_pool_connections',
        help: 'Database pool connections by pool and state (in_use, idle, waiting clients).',
        labelNames: ['pool', 'state'],
        registers,
        collect() {
          for (const [pool, stats] of Object.entries(sources.pools())) {
            this.set({ pool, state: 'in_use' }, stats.total - stats.idle);
            this.set({ pool, state: 'idle' }, stats.idle);
            this.set({ pool, state: 'waiting' }, stats.waiting);
          }
        },
      });
      if (sources.dataCache) watchDataCache(sources.dataCache, registers);
      let pending: Gauge | undefined;
      let oldest: Gauge | undefined;
      new Gauge({
        name: 'signalboard_webhook_outbox_backlog',
        help: 'Webhook events not yet fanned out to their endpoints.',
        registers,
        async collect() {
          const backlog = await sources.webhookBacklog();
          this.set(backlog.undispatched);
          pending!.set(backlog.pending);
          oldest!.set(backlog.oldestPendingSeconds);
        },
      });
      pending = new Gauge({ name: 'signalboard_webhook_deliveries_pending', help: 'Webhook deliveries waiting for an attempt.', registers });
      oldest = new Gauge({ name: 'signalboard_webhook_oldest_pending_seconds', help: 'Age of the oldest due webhook delivery (0 when none is due).', registers });
    },
  };
}

// A group's gauges are filled by the collect() of the one registered first (prom-client
// serialises in registration order, after each metric's own collect()).
function watchDataCache(dataCache: NonNullable<MetricSources['dataCache']>, registers: Registry[]) {
  let cacheBytes: Gauge | undefined;
  let cacheEntries: Gauge | undefined;
  new Gauge({
    name: 'signalboard_data_cache_lookups',
    help: 'Data cache lookups since start, by result.',
    labelNames: ['result'],
    registers,
    collect() {
      const stats = dataCache();
      this.set({ result: 'hit' }, stats.hits);
      this.set({ result: 'miss' }, stats.misses);
      cacheBytes!.set(stats.bytes);
      cacheEntries!.set(stats.entries);
    },
  });
  cacheBytes = new Gauge({ name: 'signalboard_data_cache_bytes', help: 'Bytes held by the data cache.', registers });
  cacheEntries = new Gauge({ name: 'signalboard_data_cache_entries', help: 'Entries held by the data cache.', registers });
}

function disabledMetrics(registry: Registry) {
  const nothing = () => {};
  return {
    contentType: registry.contentType,
    text: () => Promise.resolve(''),
    observeRequest: nothing as (route: string, method: string, status: number, seconds: number) => void,
    toolCall: nothing as (tool: string, outcome: 'ok' | 'error') => void,
    graphqlOperation: nothing as (operation: string, outcome: 'ok' | 'error', seconds: number) => void,
    webhookDelivery: nothing as (outcome: 'succeeded' | 'retry' | 'failed' | 'gone') => void,
    watch: nothing as (sources: MetricSources) => void,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
