// RFC 6750: every 401 of a bearer door says how to authenticate (WWW-Authenticate: Bearer), with
// error= when a credential was sent and refused; a key without the route's scope is told which.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/auth/key-management.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
let expired: string;
let revoked: string;
let narrow: string;

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: 'i'.repeat(40) });
  const toExpire = await createKeyedWorkspace(t.database, { expiresAt: new Date(Date.now() + 60_000) });
  await t.database.prisma.apiKey.update({
    where: { id: toExpire.key.id },
    data: { expiresAt: new Date(Date.now() - 1000) },
  });
  expired = toExpire.key.secret;
  const toRevoke = await createKeyedWorkspace(t.database);
  await revokeApiKey(t.database.prisma, async (target) => t.authenticator.invalidate(target), toRevoke.key.id, {
    email: toRevoke.ownerEmail,
  });
  revoked = toRevoke.key.secret;
  narrow = (await createKeyedWorkspace(t.database, { scopes: ['reports:read'] })).key.secret;
});
afterAll(() => t.close());

const challenge = async (response: Response) => {
  await response.arrayBuffer();
  return { status: response.status, header: response.headers.get('www-authenticate') };
};

describe('WWW-Authenticate', () => {
  it('v1 401s carry the Bearer challenge, with error= for a refused credential', async () => {
    expect(await challenge(await t.get('/api/v1/clients'))).toEqual({
      status: 401,
      header: 'Bearer realm="signalboard"',
    });
    expect(
      await challenge(await t.get('/api/v1/clients', undefined, { headers: { authorization: 'Basic abc' } })),
    ).toEqual({ status: 401, header: 'Bearer realm="signalboard", error="invalid_request"' });
    for (const key of ['sb_live_nonsense', expired, revoked]) {
      expect(await challenge(await t.get('/api/v1/clients', key))).toEqual({
        status: 401,
        header: 'Bearer realm="signalboard", error="invalid_token"',
      });
    }
  });

  it('a key without the scope is 403 with error="insufficient_scope" and the scope it needs', async () => {
    const response = await t.get('/api/v1/ai-visibility/projects', narrow);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="signalboard", error="insufficient_scope", scope="ai_visibility:read"',
    );
    expect((await json(response)).error.code).toBe('insufficient_scope');
  });

  it('GraphQL and ingest 401s carry it too', async () => {
    const graphql = await t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${revoked}` },
        body: '{"query":"{__typename}"}',
      }),
    );
    expect(await challenge(graphql)).toEqual({
      status: 401,
      header: 'Bearer realm="signalboard", error="invalid_token"',
    });
    const ingest = await t.app.fetch(
      new Request('http://test.local/internal/ingest/scans', {
        method: 'POST',
        headers: { authorization: 'Bearer wrong' },
        body: '',
      }),
    );
    expect(await challenge(ingest)).toEqual({
      status: 401,
      header: 'Bearer realm="signalboard", error="invalid_token"',
    });
  });
});
