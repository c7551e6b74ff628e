// The OAuth endpoints clients POST to answer any other method 405 with Allow, in OAuth's error
// shape (the provider's router answered 404, as if they did not exist); POST and a browser's
// preflight still reach the provider.
import { describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';

const served = useListeningApp();

const ENDPOINTS = [
  ['/oauth/token', 'POST, OPTIONS'],
  ['/oauth/register', 'POST'],
  ['/oauth/revoke', 'POST, OPTIONS'],
] as const;

describe('OAuth endpoints by method', () => {
  it.each(ENDPOINTS)(
    '%s refuses GET, PUT, DELETE and PATCH with 405, Allow and an OAuth error',
    async (path, allow) => {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
        const response = await fetch(`${served.baseUrl}${path}`, { method });
        expect(response.status, method).toBe(405);
        expect(response.headers.get('allow')).toBe(allow);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(await response.json()).toEqual({
          error: 'invalid_request',
          error_description: `${method} is not allowed on ${path}; send a POST.`,
        });
      }
      const head = await fetch(`${served.baseUrl}${path}`, { method: 'HEAD' });
      expect([head.status, head.headers.get('allow')]).toEqual([405, allow]);
    },
  );

  it.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])(
    '%s, a document, refuses POST, PUT, DELETE and PATCH with 405 and Allow, and is read with GET and HEAD',
    async (path) => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const response = await fetch(`${served.baseUrl}${path}`, { method });
        expect(response.status, method).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        expect((await response.json()).error_description).toBe(`${method} is not allowed on ${path}; send a GET.`);
      }
      expect((await fetch(`${served.baseUrl}${path}`)).status).toBe(200);
      expect((await fetch(`${served.baseUrl}${path}`, { method: 'HEAD' })).status).toBe(200);
    },
  );

  it.each(ENDPOINTS)('%s still takes a POST to the provider', async (path) => {
    const response = await fetch(`${served.baseUrl}${path}`, { method: 'POST', body: '' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/^invalid_/);
  });

  it('answers a CORS preflight of the token endpoint as before', async () => {
    const response = await fetch(`${served.baseUrl}/oauth/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://client.example');
  });
});

describe('what the authorization server does not offer', () => {
  it("has no sign-out endpoint: not advertised, and its path is not the provider's page", async () => {
    const metadata = await (await fetch(`${served.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.end_session_endpoint).toBeUndefined();
    const end = await fetch(`${served.baseUrl}/oauth/session/end`);
    expect(end.status).toBe(404);
    expect(end.headers.get('set-cookie')).toBeNull();
    expect(await end.text()).not.toContain('<script');
  });
});

describe('text PostgreSQL cannot store, before the provider sees it', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  it.each([
    ['GET /oauth/authorize, client_id', '/oauth/authorize?response_type=code&client_id=%00', {}, 'client_id'],
    [
      'POST /oauth/token, client_id',
      '/oauth/token',
      { method: 'POST', headers: form, body: 'grant_type=authorization_code&code=x&client_id=%00&client_secret=y' },
      'client_id',
    ],
    ['POST /oauth/revoke, token', '/oauth/revoke', { method: 'POST', headers: form, body: 'token=%00' }, 'token'],
    [
      'POST /oauth/register, client_name',
      '/oauth/register',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"redirect_uris":["http://localhost/cb"],"client_name":"a\\u0000b"}',
      },
      'client_name',
    ],
  ])('a NUL in %s is 400 invalid_parameter naming it, not a 500', async (_what, path, init, param) => {
    const response = await fetch(`${served.baseUrl}${path}`, init as RequestInit);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'invalid_parameter', param });
  });
});
