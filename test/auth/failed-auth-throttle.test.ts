// Failed authentications per client address: past the address's bucket a wrong key is answered
// 429 with Retry-After instead of 401, on every door; a valid key from the same address is served.
import { describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp } from '../support/app.js';

describe('an address sending wrong keys', () => {
  it(
    'gets 401 for its bucket, then 429 with Retry-After; ' + 'a valid key from the same address is still served',
    async () => {
      // A token every 100 s: the steps below cannot outlast a refill on a loaded machine.
      const t = await createTestApp({ AUTH_FAILURES_PER_ADDRESS: '3/0.01' });
      try {
        const { key } = await createKeyedWorkspace(t.database);
        const call = (path: string, authorization: string) =>
          t.app.fetch(new Request(`http://test.local${path}`, { headers: { authorization } }), {
            remoteAddress: '203.0.113.7',
          });
        const wrong = 'Bearer sgb_live_AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
        const statuses = [];
        for (let index = 0; index < 3; index++) statuses.push((await call('/api/v1/clients', wrong)).status);
        expect(statuses).toEqual([401, 401, 401]);
        const refused = await call('/api/v1/clients', wrong);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('100');
        expect((await refused.json()).error).toMatchObject({
          code: 'rate_limited',
          message: expect.stringContaining('failed authentications from this address'),
        });
        // The same on the other doors, and never for a valid key.
        expect((await call('/graphql?query=%7B__typename%7D', wrong)).status).toBe(429);
        expect((await call('/api/v1/clients', `Bearer ${key.secret}`)).status).toBe(200);
        // A request without a credential (an MCP client discovering the authorization server) is never throttled.
        expect(
          (await t.app.fetch(new Request('http://test.local/api/v1/clients'), { remoteAddress: '203.0.113.7' })).status,
        ).toBe(401);
        // Another address has its own bucket.
        expect(
          (
            await t.app.fetch(new Request('http://test.local/api/v1/clients', { headers: { authorization: wrong } }), {
              remoteAddress: '203.0.113.8',
            })
          ).status,
        ).toBe(401);
      } finally {
        await t.close();
      }
    },
  );
});
