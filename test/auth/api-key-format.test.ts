import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerToken, generateApiKey, parseApiKey, secretMatches } from '../../src/auth/api-key-format.js';

describe('API key format', () => {
  it('generates sgb_live_<key_id>.<secret> with 256 bits of secret, verified by hash', () => {
    const key = generateApiKey();
    expect(key.secret).toMatch(/^sgb_live_[0-9A-Za-z]{16}\.[A-Za-z0-9_-]{43}$/);
    const parsed = parseApiKey(key.secret)!;
    expect(parsed.keyId).toBe(key.keyId);
    expect(Buffer.from(parsed.secretPart, 'base64url')).toHaveLength(32);
    expect(secretMatches(parsed.secretPart, key.secretHash)).toBe(true);
    expect(
      secretMatches(
        parsed.secretPart.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        key.secretHash,
      ),
    ).toBe(false);
    // What is stored is the SHA-256 of the secret part, never the secret itself.
    expect(key.secretHash).toEqual(createHash('sha256').update(parsed.secretPart).digest());
    expect(key.secretHash.equals(Buffer.from(parsed.secretPart, 'base64url'))).toBe(false);
  });

  it('accepts only a single well-formed bearer token', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    for (const bad of [null, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearer a, Bearer b', 'abc'])
      expect(bearerToken(bad)).toBeNull();
    expect(parseApiKey('sgb_test_AAAAAAAAAAAAAAAA.' + 'a'.repeat(43))).toBeNull();
  });
});
