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
});
