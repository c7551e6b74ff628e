// Gauges read when Prometheus scrapes, from their sources: the database pools, the data cache,
// requests in flight per lane and the webhook outbox; nothing is kept up to date on the hot path.
import { Gauge, type Registry } from 'prom-client';

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

// A group's gauges are filled by the collect() of the one registered first (prom-client
// serialises in registration order, after each metric's own collect()).
function watchDataCache(dataCache: NonNullable<MetricSources['dataCache']>, registers: Registry[]) {
  const cacheBytes = new Gauge({
    name: 'signalboard_data_cache_bytes',
    help: 'Bytes held by the data cache.',
    registers: [],
  });
  const cacheEntries = new Gauge({
    name: 'signalboard_data_cache_entries',
    help: 'Entries held by the data cache.',
    registers: [],
  });
  new Gauge({
    name: 'signalboard_data_cache_lookups',
    help: 'Data cache lookups since start, by result.',
    labelNames: ['result'],
    registers,
    collect() {
      const stats = dataCache();
      this.set({ result: 'hit' }, stats.hits);
      this.set({ result: 'miss' }, stats.misses);
      cacheBytes.set(stats.bytes);
      cacheEntries.set(stats.entries);
    },
  });
  registerAfter(registers, cacheBytes, cacheEntries);
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

/** Registers gauges after the one whose collect() fills them, so that they are serialised after it. */
function registerAfter(registers: Registry[], ...gauges: Gauge[]) {
  for (const registry of registers) for (const gauge of gauges) registry.registerMetric(gauge);
}

function watchWebhookBacklog(webhookBacklog: MetricSources['webhookBacklog'], registers: Registry[]) {
  const pending = new Gauge({
    name: 'signalboard_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for an attempt.',
    registers: [],
  });
  const oldest = new Gauge({
    name: 'signalboard_webhook_oldest_pending_seconds',
    help: 'Age of the oldest due webhook delivery (0 when none is due).',
    registers: [],
  });
  new Gauge({
    name: 'signalboard_webhook_outbox_backlog',
    help: 'Webhook events not yet fanned out to their endpoints.',
    registers,
    async collect() {
      const backlog = await webhookBacklog();
      this.set(backlog.undispatched);
      pending.set(backlog.pending);
      oldest.set(backlog.oldestPendingSeconds);
    },
  });
  registerAfter(registers, pending, oldest);
}

/** The gauges of `sources`, read at scrape time. */
export function watchSources(sources: MetricSources, registers: Registry[]) {
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
  watchWebhookBacklog(sources.webhookBacklog, registers);
}
