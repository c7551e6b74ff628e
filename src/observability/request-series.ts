// Requests by route, method and status, and their latency histogram, counted without prom-client
// on the hot path and handed to it when Prometheus scrapes.
import { Histogram } from 'prom-client';

// From a cached 304 (≈1 ms) to a cold report over years of facts (seconds).
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

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
export function requestSeries() {
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
export class RequestLatencyHistogram extends Histogram<'le' | 'route' | 'method'> {
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
