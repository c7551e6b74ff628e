// The provider metric catalog: the single declaration that drives definition
// validation, the SQL of the report engine, the GraphQL/OpenAPI enums and the docs.
// Base metrics are summable columns of metric_facts; derived metrics are ratios of them.

export type MetricUnit = 'count' | 'currency' | 'percent' | 'decimal';
/**
 * Which way a metric is good: `higher` (sessions, ROAS), `lower` (CPC, average position: 1 is
 * first) or `neutral` (cost: more spend is a budget decision, neither good nor bad). Every view
 * colours and words a change by this, never by its sign alone.
 */
export type MetricDirection = 'higher' | 'lower' | 'neutral';
export const METRIC_DIRECTIONS = ['higher', 'lower', 'neutral'] as const satisfies readonly MetricDirection[];

export interface BaseMetric {
  kind: 'base';
  unit: MetricUnit;
  direction: MetricDirection;
  /** Column of metric_facts holding the daily amount. */
  column: string;
}

export interface DerivedMetric {
  kind: 'derived';
  unit: MetricUnit;
  direction: MetricDirection;
  numerator: string;
  denominator: string;
  multiplier?: number;
}

export type MetricDefinition = BaseMetric | DerivedMetric;

export interface ProviderDefinition {
  label: string;
  metrics: Record<string, MetricDefinition>;
  dimensions: readonly string[];
}

const base = (unit: MetricUnit, direction: MetricDirection, column: string): BaseMetric => ({
  kind: 'base',
  unit,
  direction,
  column,
});
const derived = (
  unit: MetricUnit,
  direction: MetricDirection,
  numerator: string,
  denominator: string,
  multiplier?: number,
): DerivedMetric => ({
  kind: 'derived',
  unit,
  direction,
  numerator,
  denominator,
  ...(multiplier ? { multiplier } : {}),
});

export const PROVIDERS = ['google_analytics', 'google_ads', 'meta_ads', 'google_search_console'] as const;
export type ProviderId = (typeof PROVIDERS)[number];

export const catalog: Record<ProviderId, ProviderDefinition> = {
  google_analytics: {
    label: 'Google Analytics',
    metrics: {
      sessions: base('count', 'higher', 'sessions'),
      engaged_sessions: base('count', 'higher', 'engaged_sessions'),
      users: base('count', 'higher', 'users'),
      new_users: base('count', 'higher', 'new_users'),
      conversions: base('count', 'higher', 'conversions'),
      conversion_value: base('currency', 'higher', 'conversion_value'),
      engagement_rate: derived('percent', 'higher', 'engaged_sessions', 'sessions'),
      conversion_rate: derived('percent', 'higher', 'conversions', 'sessions'),
    },
    dimensions: ['channel', 'device', 'country'],
  },
  google_ads: {
    label: 'Google Ads',
    metrics: {
      clicks: base('count', 'higher', 'clicks'),
      impressions: base('count', 'higher', 'impressions'),
      cost: base('currency', 'neutral', 'cost'),
      conversions: base('count', 'higher', 'conversions'),
      conversion_value: base('currency', 'higher', 'conversion_value'),
      ctr: derived('percent', 'higher', 'clicks', 'impressions'),
      cpc: derived('currency', 'lower', 'cost', 'clicks'),
      cpa: derived('currency', 'lower', 'cost', 'conversions'),
      roas: derived('decimal', 'higher', 'conversion_value', 'cost'),
      conversion_rate: derived('percent', 'higher', 'conversions', 'clicks'),
    },
    dimensions: ['campaign', 'device', 'country'],
  },
  meta_ads: {
    label: 'Meta Ads',
    metrics: {
      clicks: base('count', 'higher', 'clicks'),
      impressions: base('count', 'higher', 'impressions'),
      reach: base('count', 'higher', 'reach'),
      cost: base('currency', 'neutral', 'cost'),
      conversions: base('count', 'higher', 'conversions'),
      conversion_value: base('currency', 'higher', 'conversion_value'),
      ctr: derived('percent', 'higher', 'clicks', 'impressions'),
      cpc: derived('currency', 'lower', 'cost', 'clicks'),
      cpm: derived('currency', 'lower', 'cost', 'impressions', 1000),
      roas: derived('decimal', 'higher', 'conversion_value', 'cost'),
    },
    dimensions: ['campaign', 'device', 'country'],
  },
  google_search_console: {
    label: 'Google Search Console',
    metrics: {
      clicks: base('count', 'higher', 'clicks'),
      impressions: base('count', 'higher', 'impressions'),
      position_weighted: base('decimal', 'neutral', 'position_weighted'),
      ctr: derived('percent', 'higher', 'clicks', 'impressions'),
      average_position: derived('decimal', 'lower', 'position_weighted', 'impressions'),
    },
    dimensions: ['country', 'device'],
  },
};

export const ALL_METRIC_NAMES = [
  ...new Set(PROVIDERS.flatMap((provider) => Object.keys(catalog[provider].metrics))),
].sort();

export function baseMetricsOf(provider: ProviderId): string[] {
  return Object.entries(catalog[provider].metrics)
    .filter(([, metric]) => metric.kind === 'base')
    .map(([name]) => name);
}

/** The base metrics a metric is computed from. */
export function inputsOf(provider: ProviderId, name: string): string[] {
  const metric = catalog[provider].metrics[name]!;
  return metric.kind === 'base' ? [name] : [metric.numerator, metric.denominator];
}

/** A metric's value from summed base parts; a ratio with a zero or missing denominator is null. */
export function metricValue(
  provider: ProviderId,
  name: string,
  sums: Record<string, number | null | undefined>,
): number | null {
  const metric = catalog[provider].metrics[name]!;
  if (metric.kind === 'base') return sums[name] ?? 0;
  const numerator = sums[metric.numerator] ?? 0;
  const denominator = sums[metric.denominator] ?? 0;
  if (denominator === 0) return null;
  return (numerator / denominator) * (metric.multiplier ?? 1);
}

/** The summable columns of metric_facts: every provider's base metrics. */
export const METRIC_COLUMNS = [...new Set(PROVIDERS.flatMap((provider) => baseMetricsOf(provider)))];

/**
 * Sums count every fact in millionths, as whole numbers: exact whatever order a plan reads the facts
 * in (docs/decisions/report-sums-statement.md). A finer digit of a fact is rounded when it is summed.
 */
export const METRIC_DECIMALS = 6;
/**
 * The largest value a fact may hold: its millionths still fit a bigint (2^63 ≈ 9.2e18). The database
 * refuses a larger one too (migration 0015), so no stored fact can make a report's sums fail.
 */
export const METRIC_VALUE_MAX = 1e12;
