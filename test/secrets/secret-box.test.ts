import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, decodeKey } from '../../src/secrets/secret-box.js';

describe('the secret box', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const sealed = box.seal('whsec_abc', 'webhook_endpoint:whe_1:secret');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed, 'webhook_endpoint:whe_1:secret')).toBe('whsec_abc');
    // A fresh IV each time.
    expect(box.seal('whsec_abc', 'x')).not.toBe(box.seal('whsec_abc', 'x'));
  });

  it("refuses another row's context, another key and tampering, without echoing anything secret", () => {
    const sealed = box.seal('whsec_abc', 'webhook_endpoint:whe_1:secret');
    expect(() => box.open(sealed, 'webhook_endpoint:whe_2:secret')).toThrow(/cannot be opened/);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'webhook_endpoint:whe_1:secret')).toThrow(
      /cannot be opened/,
    );
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => box.open(parts.join(':'), 'webhook_endpoint:whe_1:secret')).toThrow(/cannot be opened/);
    expect(() => box.open('plain-text', 'x')).toThrow(/not a sealed secret/);
  });

  it('reads keys as 64 hex characters or base64 of 32 bytes', () => {
    expect(decodeKey(key.toString('hex'))).toEqual(key);
    expect(decodeKey(key.toString('base64'))).toEqual(key);
    expect(decodeKey(key.toString('base64url'))).toEqual(key);
    expect(decodeKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(decodeKey('not a key')).toBeNull();
  });
});
