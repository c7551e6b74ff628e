import { describe, expect, it } from 'vitest';
import { catalog, METRIC_COLUMNS, metricValue, PROVIDERS } from '../../src/reports/catalog.js';

describe('metric catalog', () => {
  it('derives ratios from summed parts and returns null on a zero denominator', () => {
    expect(metricValue('google_ads', 'ctr', { clicks: 11, impressions: 101 })).toBeCloseTo(11 / 101);
    expect(metricValue('google_ads', 'ctr', { clicks: 0, impressions: 0 })).toBeNull();
    expect(metricValue('meta_ads', 'cpm', { cost: 5, impressions: 1000 })).toBe(5);
    expect(metricValue('google_ads', 'clicks', {})).toBe(0);
  });

  it(
    'declares which way each metric is good: costs per result and positions lower, spend neither, the ' + 'rest higher',
    () => {
      const lower = new Set(['cpc', 'cpa', 'cpm', 'average_position']);
      const neutral = new Set(['cost', 'position_weighted']);
      for (const provider of PROVIDERS) {
        for (const [name, metric] of Object.entries(catalog[provider].metrics)) {
          expect(metric.direction, `${provider}.${name}`).toBe(
            lower.has(name) ? 'lower' : neutral.has(name) ? 'neutral' : 'higher',
          );
        }
      }
    },
  );

  it('every derived metric refers to base metrics of its own provider', () => {
    for (const provider of PROVIDERS) {
      for (const [name, metric] of Object.entries(catalog[provider].metrics)) {
        if (metric.kind === 'derived') {
          expect(catalog[provider].metrics[metric.numerator]?.kind, `${provider}.${name}`).toBe('base');
          expect(catalog[provider].metrics[metric.denominator]?.kind, `${provider}.${name}`).toBe('base');
        }
      }
    }
  });

  it('has a fact column for every base metric', () => {
    const base = PROVIDERS.flatMap((provider) =>
      Object.entries(catalog[provider].metrics)
        .filter(([, metric]) => metric.kind === 'base')
        .map(([name]) => name),
    );
    expect(base.length).toBeGreaterThanOrEqual(PROVIDERS.length);
    for (const name of base) expect(METRIC_COLUMNS).toContain(name);
  });
});
