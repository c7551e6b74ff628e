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
  /** The API instances' requests in flight and waiting for a workspace's share, by lane (the worker has none). */
  requests?(): Record<string, { holding: number; waiting: number }>;
}

/** A pg pool's counts, as the pool gauge reads them. */
export const poolStats = (pool: { totalCount: number; idleCount: number; waitingCount: number }): PoolStats => ({
  total: pool.totalCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});

/** The instance's metrics; with `enabled: false` (METRICS_PORT=0) they record nothing and cost nothing. */
export function createMetrics(options: { enabled?: boolean } = {}) {
  const registry = new Registry();
  if (options.enabled === false) return disabledMetrics(registry);
  collectDefaultMetrics({ register: registry, prefix: 'signalboard_' });
  const registers = [registry];
  const requests = requestSeries();
  new Counter({
    name: 'signalboard_http_requests_total',
    help: 'HTTP requests by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers,
    collect() {
      this.reset();
      for (const { route, method, status, count } of requests.counts()) this.inc({ route, method, status }, count);
    },
  });
  registry.registerMetric(new RequestLatencyHistogram(requests));
  const toolCalls = new Counter({
    name: 'signalboard_mcp_tool_calls_total',
    help: 'MCP tool calls by tool and outcome (ok, error).',
    labelNames: ['tool', 'outcome'],
    registers,
  });
  const operations = new Counter({
    name: 'signalboard_graphql_operations_total',
    help:
      'GraphQL operations executed at /graphql, by operation ' +
      '(the web app\'s named operations; others are "other") and outcome.',
    labelNames: ['operation', 'outcome'],
    registers,
  });
  const operationDuration = new Histogram({
    name: 'signalboard_graphql_operation_duration_seconds',
    help: 'GraphQL execution time by operation.',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const responsesCut = new Counter({
    name: 'signalboard_http_responses_cut_total',
    help: 'Responses cut because their client accepted no byte for RESPONSE_STALL_SECONDS.',
    registers,
  });
  const deliveries = new Counter({
    name: 'signalboard_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome.',
    labelNames: ['outcome'],
    registers,
  });

  return {
    contentType: registry.contentType,
    text: () => registry.metrics(),
    observeRequest(route: string, method: string, status: number, seconds: number) {
      requests.record(route, METHODS.has(method) ? method : 'OTHER', status, seconds);
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
    responseCut() {
      responsesCut.inc();
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
      if (sources.requests) watchRequestShares(sources.requests, registers);
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
      pending = new Gauge({
        name: 'signalboard_webhook_deliveries_pending',
        help: 'Webhook deliveries waiting for an attempt.',
        registers,
      });
      oldest = new Gauge({
        name: 'signalboard_webhook_oldest_pending_seconds',
        help: 'Age of the oldest due webhook delivery (0 when none is due).',
        registers,
      });
    },
  };
}

/** A latency histogram's series: a count per bucket (not cumulative), their sum and count. */
interface LatencySeries {
  route: string;
  method: string;
  perBucket: number[];
  sum: number;
  count: number;
}

/**
 * Requests by route, method and status, and their latency, kept as plain numbers on the hot path
 * and handed to prom-client when Prometheus scrapes: its labelled inc and observe per request
 * would take most of the instrumentation's budget (docs/decisions/instrumentation-budget.md).
 */
function requestSeries() {
  const counts = new Map<
    string,
    { route: string; method: string; status: string; count: number; latency: LatencySeries }
  >();
  const latencies = new Map<string, LatencySeries>();
  return {
    record(route: string, method: string, status: number, seconds: number) {
      const key = `${status} ${method} ${route}`;
      let series = counts.get(key);
      if (!series) {
        const latencyKey = `${method} ${route}`;
        let latency = latencies.get(latencyKey);
        if (!latency)
          latencies.set(
            latencyKey,
            (latency = { route, method, perBucket: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }),
          );
        counts.set(key, (series = { route, method, status: String(status), count: 0, latency }));
      }
      series.count++;
      const { latency } = series;
      latency.sum += seconds;
      latency.count++;
      for (let bucket = 0; bucket < LATENCY_BUCKETS.length; bucket++) {
        if (seconds <= LATENCY_BUCKETS[bucket]!) {
          latency.perBucket[bucket]!++;
          break;
        }
      }
    },
    counts: () => counts.values(),
    latencies: () => latencies.values(),
  };
}

const REQUEST_LATENCY = 'signalboard_http_request_duration_seconds';
const REQUEST_LATENCY_HELP = 'HTTP request latency by route template and method.';

/**
 * The request latency histogram, read from `requestSeries` when scraped. The registry asks a
 * histogram for `getForPromString()` (text) or `get()` (JSON, which splays the same values), so
 * the series are given in the histogram's own value shape: `le` as labels, the series' labels shared.
 */
class RequestLatencyHistogram extends Histogram<'le' | 'route' | 'method'> {
  constructor(private readonly series: ReturnType<typeof requestSeries>) {
    super({
      name: REQUEST_LATENCY,
      help: REQUEST_LATENCY_HELP,
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers: [],
    });
  }

  async getForPromString() {
    const values: {
      labels: { le?: number | string };
      sharedLabels: { route: string; method: string };
      value: number;
      metricName: string;
    }[] = [];
    for (const { route, method, perBucket, sum, count } of this.series.latencies()) {
      const sharedLabels = { route, method };
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, bucket) => {
        cumulative += perBucket[bucket]!;
        values.push({ labels: { le }, sharedLabels, value: cumulative, metricName: `${REQUEST_LATENCY}_bucket` });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels, value: count, metricName: `${REQUEST_LATENCY}_bucket` },
        { labels: {}, sharedLabels, value: sum, metricName: `${REQUEST_LATENCY}_sum` },
        { labels: {}, sharedLabels, value: count, metricName: `${REQUEST_LATENCY}_count` },
      );
    }
    return { name: REQUEST_LATENCY, help: REQUEST_LATENCY_HELP, type: 'histogram', values, aggregator: 'sum' };
  }
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
  cacheEntries = new Gauge({
    name: 'signalboard_data_cache_entries',
    help: 'Entries held by the data cache.',
    registers,
  });
}

function watchRequestShares(requests: NonNullable<MetricSources['requests']>, registers: Registry[]) {
  new Gauge({
    name: 'signalboard_workspace_requests',
    help:
      "Requests holding a workspace's share of requests in flight, and requests waiting for one, " +
      'by lane (automation, people).',
    labelNames: ['lane', 'state'],
    registers,
    collect() {
      for (const [lane, counts] of Object.entries(requests())) {
        this.set({ lane, state: 'in_flight' }, counts.holding);
        this.set({ lane, state: 'waiting' }, counts.waiting);
      }
    },
  });
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
    responseCut: nothing as () => void,
    watch: nothing as (sources: MetricSources) => void,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
