import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/index.js';

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

  it('production needs PUBLIC_BASE_URL (an origin) and seeds no demo data unless asked', () => {
    const production = { NODE_ENV: 'production', APP_SECRET_KEY: 'ab'.repeat(32) };
    expect(() => parseConfig(production)).toThrow(/PUBLIC_BASE_URL: is required in production/);
    expect(() => parseConfig({ ...production, PUBLIC_BASE_URL: 'https://signalboard.example/app' })).toThrow(
      /PUBLIC_BASE_URL: must be an origin/,
    );
    expect(parseConfig({ ...production, PUBLIC_BASE_URL: 'https://signalboard.example' }).SEED_DEMO).toBe(false);
    expect(
      parseConfig({ ...production, PUBLIC_BASE_URL: 'https://signalboard.example', SEED_DEMO: 'true' }).SEED_DEMO,
    ).toBe(true);
    expect(parseConfig({}).SEED_DEMO).toBe(true);
    expect(parseConfig({ SEED_DEMO: 'false' }).SEED_DEMO).toBe(false);
  });

  it('takes SMTP_URL as smtp:// or smtps:// only', () => {
    expect(parseConfig({ SMTP_URL: 'smtps://user:pw@mail.example:465' }).SMTP_URL).toBe(
      'smtps://user:pw@mail.example:465',
    );
    expect(() => parseConfig({ SMTP_URL: 'https://mail.example' })).toThrow(/SMTP_URL/);
  });
});
