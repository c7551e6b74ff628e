import { describe, expect, it } from 'vitest';
import { catalog, metricValue, PROVIDERS } from '../../src/reports/catalog.js';
import { bearerToken, generateApiKey, parseApiKey, secretMatches } from '../../src/auth/api-key-format.js';
import { ConfigError, parseConfig } from '../../src/config/index.js';
import { METRIC_COLUMNS } from '../../src/ingest/metric-facts.js';

describe('metric catalog', () => {
  it('derives ratios from summed parts and returns null on a zero denominator', () => {
    expect(metricValue('google_ads', 'ctr', { clicks: 11, impressions: 101 })).toBeCloseTo(11 / 101);
    expect(metricValue('google_ads', 'ctr', { clicks: 0, impressions: 0 })).toBeNull();
    expect(metricValue('meta_ads', 'cpm', { cost: 5, impressions: 1000 })).toBe(5);
    expect(metricValue('google_ads', 'clicks', {})).toBe(0);
  });

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
    for (const provider of PROVIDERS) for (const [name, metric] of Object.entries(catalog[provider].metrics)) if (metric.kind === 'base') expect(METRIC_COLUMNS).toContain(name);
  });
});

describe('API key format', () => {
  it('generates sgb_live_<key_id>.<secret> with 256 bits of secret, verified by hash', () => {
    const key = generateApiKey();
    expect(key.secret).toMatch(/^sgb_live_[0-9A-Za-z]{16}\.[A-Za-z0-9_-]{43}$/);
    const parsed = parseApiKey(key.secret)!;
    expect(parsed.keyId).toBe(key.keyId);
    expect(Buffer.from(parsed.secretPart, 'base64url')).toHaveLength(32);
    expect(secretMatches(parsed.secretPart, key.secretHash)).toBe(true);
    expect(secretMatches(parsed.secretPart.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), key.secretHash)).toBe(false);
    expect(key.secretHash.toString('hex')).not.toContain(Buffer.from(parsed.secretPart).toString('hex'));
  });

  it('accepts only a single well-formed bearer token', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    for (const bad of [null, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearer a, Bearer b', 'abc']) expect(bearerToken(bad)).toBeNull();
    expect(parseApiKey('sgb_test_AAAAAAAAAAAAAAAA.' + 'a'.repeat(43))).toBeNull();
  });
});

describe('configuration', () => {
  it('applies defaults', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(4000);
    expect(config.RATE_LIMIT_AGENCY).toEqual({ capacity: 240, refillPerSecond: 4 });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('refuses bad values with a message naming them', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ RATE_LIMIT_PRO: 'lots' })).toThrow(/RATE_LIMIT_PRO/);
    expect(() => parseConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});
