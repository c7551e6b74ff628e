// Prometheus metrics (prom-client), one registry per app instance. Every label has a bounded
// set of values: routes are templates (never raw paths or ids), methods and tools come from
// fixed lists, statuses are HTTP's. Gauges of the database pool, the data cache and the
// webhook outbox are read when Prometheus scrapes, not kept up to date on the hot path.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { LATENCY_BUCKETS, RequestLatencyHistogram, requestSeries } from './request-series.js';
import { watchSources, type MetricSources, type PoolStats } from './scraped-gauges.js';

export type { MetricSources, PoolStats } from './scraped-gauges.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

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
      watchSources(sources, registers);
    },
  };
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
