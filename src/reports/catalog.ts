// The provider metric catalog: the single declaration that drives definition
// validation, the SQL of the report engine, the GraphQL/OpenAPI enums and the docs.
// Base metrics are summable columns of metric_facts; derived metrics are ratios of them.

export type MetricUnit = 'count' | 'currency' | 'percent' | 'decimal';

export interface BaseMetric {
  kind: 'base';
  unit: MetricUnit;
  /** Column of metric_facts holding the daily amount. */
  column: string;
}

export interface DerivedMetric {
  kind: 'derived';
  unit: MetricUnit;
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

const base = (unit: MetricUnit, column: string): BaseMetric => ({ kind: 'base', unit, column });
const derived = (unit: MetricUnit, numerator: string, denominator: string, multiplier?: number): DerivedMetric => ({
  kind: 'derived',
  unit,
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
      sessions: base('count', 'sessions'),
      engaged_sessions: base('count', 'engaged_sessions'),
      users: base('count', 'users'),
      new_users: base('count', 'new_users'),
      conversions: base('count', 'conversions'),
      conversion_value: base('currency', 'conversion_value'),
      engagement_rate: derived('percent', 'engaged_sessions', 'sessions'),
      conversion_rate: derived('percent', 'conversions', 'sessions'),
    },
    dimensions: ['channel', 'device', 'country'],
  },
  google_ads: {
    label: 'Google Ads',
    metrics: {
      clicks: base('count', 'clicks'),
      impressions: base('count', 'impressions'),
      cost: base('currency', 'cost'),
      conversions: base('count', 'conversions'),
      conversion_value: base('currency', 'conversion_value'),
      ctr: derived('percent', 'clicks', 'impressions'),
      cpc: derived('currency', 'cost', 'clicks'),
      cpa: derived('currency', 'cost', 'conversions'),
      roas: derived('decimal', 'conversion_value', 'cost'),
      conversion_rate: derived('percent', 'conversions', 'clicks'),
    },
    dimensions: ['campaign', 'device', 'country'],
  },
  meta_ads: {
    label: 'Meta Ads',
    metrics: {
      clicks: base('count', 'clicks'),
      impressions: base('count', 'impressions'),
      reach: base('count', 'reach'),
      cost: base('currency', 'cost'),
      conversions: base('count', 'conversions'),
      conversion_value: base('currency', 'conversion_value'),
      ctr: derived('percent', 'clicks', 'impressions'),
      cpc: derived('currency', 'cost', 'clicks'),
      cpm: derived('currency', 'cost', 'impressions', 1000),
      roas: derived('decimal', 'conversion_value', 'cost'),
    },
    dimensions: ['campaign', 'device', 'country'],
  },
  google_search_console: {
    label: 'Google Search Console',
    metrics: {
      clicks: base('count', 'clicks'),
      impressions: base('count', 'impressions'),
      position_weighted: base('decimal', 'position_weighted'),
      ctr: derived('percent', 'clicks', 'impressions'),
      average_position: derived('decimal', 'position_weighted', 'impressions'),
    },
    dimensions: ['country', 'device'],
  },
};

export const ALL_METRIC_NAMES = [...new Set(PROVIDERS.flatMap((provider) => Object.keys(catalog[provider].metrics)))].sort();

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
export function metricValue(provider: ProviderId, name: string, sums: Record<string, number | null | undefined>): number | null {
  const metric = catalog[provider].metrics[name]!;
  if (metric.kind === 'base') return sums[name] ?? 0;
  const numerator = sums[metric.numerator] ?? 0;
  const denominator = sums[metric.denominator] ?? 0;
  if (denominator === 0) return null;
  return (numerator / denominator) * (metric.multiplier ?? 1);
}

/** The summable columns of metric_facts: every provider's base metrics. */
export const METRIC_COLUMNS = [...new Set(PROVIDERS.flatMap((provider) => baseMetricsOf(provider)))];
