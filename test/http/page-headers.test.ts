// Every HTML page a person sees sends the same hardening: a CSP without inline script, no
// framing, no sniffing, no referrer; the consent page lets its form go to the client's redirect
// origin only. /graphql does not hand credentials to other origins.
import { beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { REDIRECT_URL } from '../support/mcp.js';

const served = useListeningApp();
let cookie = '';

beforeAll(async () => {
  const keyed = await createKeyedWorkspace(served.t.database);
  await personWithPassword(served.t.database, { email: keyed.ownerEmail });
  cookie = (await signIn(served.t.app, keyed.ownerEmail)).cookie;
});

function expectHardened(response: Response, what: string) {
  expect(response.headers.get('content-type'), what).toMatch(/^text\/html/);
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("base-uri 'none'");
  const scripts = /script-src ([^;]+)/.exec(csp)?.[1] ?? '';
  expect(scripts, what).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  expect(/form-action ([^;]+)/.exec(csp)?.[1], what).not.toContain('*');
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
  return csp;
}

describe('HTML pages', () => {
  it(
    'login, password pages, settings, errors, GraphiQL and ' +
      'the API reference are hardened and carry no inline script',
    async () => {
      const pages: [string, RequestInit][] = [
        ['/app/login', {}],
        ['/app/password/forgot', {}],
        ['/app/password/reset?token=x', {}],
        ['/app/settings', { headers: { cookie } }],
        ['/app/nowhere', { headers: { accept: 'text/html' } }],
        ['/graphql', { headers: { accept: 'text/html' } }],
        ['/api/v1/docs', {}],
        ['/oauth/authorize?client_id=unknown&response_type=code', {}],
      ];
      for (const [path, init] of pages) {
        const response = await fetch(`${served.baseUrl}${path}`, { redirect: 'manual', ...init });
        expectHardened(response, path);
        const html = await response.text();
        // Inline scripts would need 'unsafe-inline': none of ours has one (data blocks are not scripts).
        expect(html.match(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>\s*[^<\s]/g), path).toBeNull();
      }
    },
  );

  it("the consent page allows its form to go to this site and the client's redirect origin only", async () => {
    const registered = await (
      await fetch(`${served.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Header test',
          redirect_uris: [REDIRECT_URL],
          token_endpoint_auth_method: 'none',
        }),
      })
    ).json();
    const url = new URL(`${served.baseUrl}/oauth/authorize`);
    for (const [key, value] of Object.entries({
      client_id: registered.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT_URL,
      scope: 'mcp',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(key, value);
    let current = url;
    const jar: string[] = [cookie];
    for (let hop = 0; hop < 6; hop++) {
      const response = await fetch(current, { redirect: 'manual', headers: { cookie: jar.join('; ') } });
      for (const header of response.headers.getSetCookie()) jar.push(header.split(';')[0]!);
      const location = response.headers.get('location');
      if (location) {
        current = new URL(location, current);
        continue;
      }
      const csp = expectHardened(response, 'consent');
      expect(/form-action ([^;]+)/.exec(csp)![1]!.trim()).toBe("'self' http://127.0.0.1:1");
      expect(await response.text()).toContain('Not verified by Signalboard');
      return;
    }
    throw new Error('no consent page');
  });
});

describe('/graphql and other origins', () => {
  it('does not reflect a foreign Origin with credentials; its own origin may send cookies', async () => {
    const preflight = (origin: string) =>
      fetch(`${served.baseUrl}/graphql`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const foreign = await preflight('https://evil.example');
    // Any site may call with an API key, but the browser never sends it our cookies (no credentials).
    expect(foreign.headers.get('access-control-allow-credentials')).toBeNull();
    const own = await preflight(served.baseUrl);
    expect(own.headers.get('access-control-allow-origin')).toBe(served.baseUrl);
    expect(own.headers.get('access-control-allow-credentials')).toBe('true');
  });
});
