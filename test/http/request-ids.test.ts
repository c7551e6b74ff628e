import { describe, expect, it } from 'vitest';
import { newRequestId, requestIdOf } from '../../src/http/responses.js';

describe('request ids', () => {
  it('are req_ and 128 random bits in hex, none repeated across refills of the pool', () => {
    const ids = Array.from({ length: 2_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keep a sane incoming X-Request-Id and replace anything else', () => {
    const withId = (value: string) => new Request('http://x/', { headers: { 'x-request-id': value } });
    expect(requestIdOf(withId('lb-1234abcd'))).toBe('lb-1234abcd');
    expect(requestIdOf(withId('a b c d e f g h'))).toMatch(/^req_[0-9a-f]{32}$/);
    expect(requestIdOf(new Request('http://x/'))).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
