// The MCP connector's doors as an attacker tries them: other Host headers, hostile client
// registrations, the implicit flow, credentials in a dump of the store, a browser's foreign
// Origin, GETs that would hang, and sign-out that must end the authorization server's session.
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { call, personWithPassword, signIn } from '../support/web.js';
import { connectMcp, consent, REDIRECT_URL, TestOAuthProvider } from '../support/mcp.js';
import { statementsDuring } from '../support/sql-count.js';

// Behind a trusted proxy, so that each test can speak from its own address (the registration limit is per address).
const served = useListeningApp({ TRUST_PROXY: 'true', MCP_ALLOWED_ORIGINS: 'https://inspector.example' });
let owner: { cookie: string; csrf: string };
let provider: TestOAuthProvider;

/** A raw request with any Host header (fetch sets its own). */
function rawGet(
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { port } = new URL(served.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method: 'GET', headers: { host, ...headers }, agent: false },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body, headers: response.headers }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

// A real collection before each heap reading (vitest's workers run without --expose-gc, and a
// busy suite otherwise leaves megabytes of garbage in the figure).
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const register = (metadata: Record<string, unknown>, address = '192.0.2.1') =>
  fetch(`${served.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ redirect_uris: [REDIRECT_URL], token_endpoint_auth_method: 'none', ...metadata }),
  });

beforeAll(async () => {
  const keyed = await createKeyedWorkspace(served.t.database);
  await personWithPassword(served.t.database, { email: keyed.ownerEmail });
  owner = await signIn(served.t.app, keyed.ownerEmail);
  provider = new TestOAuthProvider({ cookie: owner.cookie, workspaceId: keyed.workspace.id });
  (await connectMcp(served.baseUrl, provider)).close();
}, 60_000);

describe('one issuer', () => {
  it('1 000 other Host headers get 421 and allocate nothing; malformed ones get 400, never 500', async () => {
    for (let i = 0; i < 50; i++) await rawGet('/.well-known/oauth-authorization-server', `warmup-${i}.example`);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const statuses = new Set<number>();
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          rawGet(batch % 2 ? '/.well-known/oauth-authorization-server' : '/mcp', `attacker-${batch}-${i}.example`),
        ),
      );
      for (const answer of answers) statuses.add(answer.status);
    }
    expect([...statuses]).toEqual([421]);
    collectGarbage();
    // Each built authorization server kept ~43 KB; 1 000 of them would be tens of MB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(15 * 1024 * 1024);
    for (const host of ['a b', '[zz]', 'a/b', 'evil.example/x']) {
      const answer = await rawGet('/.well-known/oauth-authorization-server', host);
      expect(answer.status, host).toBe(400);
      expect(JSON.parse(answer.body).error.code).toBe('bad_request');
    }
    const metadata = JSON.parse(
      (await rawGet('/.well-known/oauth-authorization-server', new URL(served.baseUrl).host)).body,
    );
    expect(metadata.issuer).toBe(served.baseUrl);
  });

  it('refuses in the one error envelope, with the id the request came with (as every door does)', async () => {
    const refused = await rawGet('/.well-known/oauth-authorization-server', 'other.example', {
      'x-request-id': 'lb-0123456789abcdef',
    });
    expect(refused.status).toBe(421);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(refused.body)).toEqual({
      error: { code: expect.any(String), message: expect.any(String), requestId: 'lb-0123456789abcdef' },
    });
    const own = JSON.parse((await rawGet('/.well-known/oauth-authorization-server', 'other.example')).body);
    expect(own.error.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    // A path the provider does not serve: the same envelope, from inside the provider.
    const host = new URL(served.baseUrl).host;
    const missing = await rawGet('/oauth/nothing-here', host, { 'x-request-id': 'lb-fedcba9876543210' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(missing.body)).toEqual({
      error: { code: 'not_found', message: 'No such OAuth path.', requestId: 'lb-fedcba9876543210' },
    });
  });
});

describe('the code flow only', () => {
  it('offers only response_type=code with PKCE S256; implicit and hybrid clients can do neither', async () => {
    const metadata = await (await fetch(`${served.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.grant_types_supported.sort()).toEqual(['authorization_code', 'refresh_token']);
    for (const response_types of [['id_token'], ['code id_token'], ['token']]) {
      const refused = await register({ response_types, grant_types: ['implicit'] }, '192.0.2.50');
      expect(refused.status, String(response_types)).toBe(400);
    }
    const authorize = new URL(`${served.baseUrl}/oauth/authorize`);
    for (const [key, value] of Object.entries({
      client_id: provider.client!.client_id,
      response_type: 'id_token',
      redirect_uri: REDIRECT_URL,
      scope: 'openid mcp',
      nonce: 'n',
      state: 's',
    }))
      authorize.searchParams.set(key, value);
    const answer = await fetch(authorize, { redirect: 'manual' });
    const location = answer.headers.get('location') ?? '';
    expect(location).not.toContain('id_token=');
    expect(
      answer.status === 400 ||
        /error=unsupported_response_type|error=invalid_request|error=unauthorized_client/.test(location),
    ).toBe(true);
  });
});

describe('client registration', () => {
  it(
    'refuses more than 5 redirect URIs, plain http outside loopback, long names and other ' +
      'grants; accepts loopback http on any port',
    async () => {
      const tooMany = await register(
        { redirect_uris: Array.from({ length: 6 }, (_, i) => `https://app.example/cb${i}`) },
        '192.0.2.2',
      );
      expect(tooMany.status).toBe(400);
      expect((await tooMany.json()).error).toBe('invalid_redirect_uri');
      expect((await register({ redirect_uris: ['http://app.example/cb'] }, '192.0.2.2')).status).toBe(400);
      expect((await register({ client_name: 'x'.repeat(101) }, '192.0.2.2')).status).toBe(400);
      expect((await register({ grant_types: ['client_credentials'] }, '192.0.2.2')).status).toBe(400);
      for (const uri of [
        'http://127.0.0.1:53682/cb',
        'http://localhost:8080/callback',
        'http://[::1]:9/cb',
        'https://app.example/cb',
      ]) {
        expect((await register({ redirect_uris: [uri], client_name: 'Fine' }, '192.0.2.3')).status, uri).toBe(201);
      }
    },
  );

  it('is rate limited per address, and an unused client expires after 30 days', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await register({ client_name: `Flood ${i}` }, '192.0.2.99')).status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect((await register({ client_name: 'Another caller' }, '192.0.2.100')).status).toBe(201);
    const clients = await served.t.database.pool.query<{ days: number }>(
      'SELECT (extract(epoch FROM expires_at - now()) / 86400)::float8 AS days FROM oauth_models ' +
        "WHERE model = 'Client' AND payload->>'client_name' = 'Another caller'",
    );
    expect(clients.rows[0]!.days).toBeGreaterThan(29.9);
    expect(clients.rows[0]!.days).toBeLessThanOrEqual(30);
  });
});

describe('secrets at rest', () => {
  it(
    'a dump of the store holds no usable access token, refresh token, code or client ' +
      'secret, and a confidential client still authenticates',
    async () => {
      const confidential = await (
        await register({ client_name: 'Confidential', token_endpoint_auth_method: 'client_secret_basic' }, '192.0.2.7')
      ).json();
      expect(confidential.client_secret).toBeTruthy();
      const dump = JSON.stringify((await served.t.database.pool.query('SELECT * FROM oauth_models')).rows);
      for (const secret of [
        provider.saved!.access_token,
        provider.saved!.refresh_token!,
        confidential.client_secret,
        confidential.registration_access_token,
      ]) {
        expect(dump.includes(secret)).toBe(false);
      }
      const revoke = (secret: string) =>
        fetch(`${served.baseUrl}/oauth/revoke`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${confidential.client_id}:${secret}`).toString('base64')}`,
          },
          body: 'token=unknown-token-value',
        });
      expect((await revoke(confidential.client_secret)).status).toBe(200);
      expect((await revoke('wrong-secret')).status).toBe(401);
    },
  );
});

describe('/mcp', () => {
  it('answers 100 parallel GETs (what SDK clients send after connecting) at once, and memory comes back', async () => {
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        fetch(`${served.baseUrl}/mcp`, {
          headers: { authorization: `Bearer ${provider.saved!.access_token}`, accept: 'text/event-stream' },
          signal: AbortSignal.timeout(10_000),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(405));
    expect(answers[0]!.headers.get('allow')).toBe('POST');
    await Promise.all(answers.map((answer) => answer.text()));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
  });

  it("refuses a browser's foreign Origin with 403 and accepts its own", async () => {
    const post = (origin: string) =>
      fetch(`${served.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          origin,
          authorization: `Bearer ${provider.saved!.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post('https://evil.example')).status).toBe(403);
    expect((await post(served.baseUrl)).status).toBe(200);
  });
});

describe('browser-based MCP clients', () => {
  it(
    'an allowed origin gets CORS with the bearer token only (no credentials); other origins ' +
      'stay refused; the metadata is readable from anywhere',
    async () => {
      const inspector = 'https://inspector.example';
      const preflight = await fetch(`${served.baseUrl}/mcp`, {
        method: 'OPTIONS',
        headers: {
          origin: inspector,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(inspector);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Mcp-Protocol-Version/);
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      const post = (origin: string, token: string | null) =>
        fetch(`${served.baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            origin,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      const listed = await post(inspector, provider.saved!.access_token);
      expect(listed.status).toBe(200);
      expect(listed.headers.get('access-control-allow-origin')).toBe(inspector);
      expect(listed.headers.get('access-control-allow-credentials')).toBeNull();
      const challenged = await post(inspector, null);
      expect(challenged.status).toBe(401);
      expect(challenged.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
      expect((await post('https://evil.example', provider.saved!.access_token)).status).toBe(403);
      expect(
        (
          await fetch(`${served.baseUrl}/mcp`, {
            method: 'OPTIONS',
            headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
          })
        ).status,
      ).toBe(403);
      const metadata = await fetch(`${served.baseUrl}/.well-known/oauth-protected-resource/mcp`, {
        headers: { origin: 'https://anywhere.example' },
      });
      expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
      const discovery = await fetch(`${served.baseUrl}/.well-known/oauth-authorization-server`, {
        headers: { origin: 'https://anywhere.example' },
      });
      // oidc-provider reflects any origin on its public metadata, without credentials.
      expect(discovery.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
      expect(discovery.headers.get('access-control-allow-credentials')).toBeNull();
    },
  );
});

describe('scopes a client asks for', () => {
  it(
    '"openid mcp" and no scope at all both end in a code and a token that works on /mcp ' +
      '(the first looped on consent, the second was access_denied)',
    async () => {
      const keyed = await createKeyedWorkspace(served.t.database);
      await personWithPassword(served.t.database, { email: keyed.ownerEmail });
      const person = await signIn(served.t.app, keyed.ownerEmail);
      // A client registered the way SDK clients do it, without a scope of its own.
      const clientId = (
        await json(
          await register(
            { client_name: 'Scope tests', grant_types: ['authorization_code', 'refresh_token'] },
            '192.0.2.77',
          ),
        )
      ).client_id as string;
      for (const scope of ['openid mcp', null]) {
        const verifier = randomBytes(32).toString('base64url');
        const url = new URL(`${served.baseUrl}/oauth/authorize`);
        const params = {
          client_id: clientId,
          response_type: 'code',
          redirect_uri: REDIRECT_URL,
          state: 's',
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
          resource: `${served.baseUrl}/mcp`,
          ...(scope ? { scope } : {}),
        };
        for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
        const code = await consent(url, { cookie: person.cookie, workspaceId: keyed.workspace.id });
        expect(code, String(scope)).toBeTruthy();
        const token = await json(
          await fetch(`${served.baseUrl}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code: code!,
              code_verifier: verifier,
              redirect_uri: REDIRECT_URL,
              client_id: clientId,
              resource: `${served.baseUrl}/mcp`,
            }).toString(),
          }),
        );
        expect(token.access_token, JSON.stringify(token)).toBeTruthy();
        expect(token.scope.split(' ')).toContain('mcp');
        const listed = await fetch(`${served.baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token.access_token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        expect(listed.status, String(scope)).toBe(200);
      }
    },
  );
});

describe('signing out', () => {
  it(
    "ends the authorization server's session too: the next /authorize asks to sign in " + 'instead of issuing a code',
    async () => {
      const keyed = await createKeyedWorkspace(served.t.database);
      await personWithPassword(served.t.database, { email: keyed.ownerEmail });
      const person = await signIn(served.t.app, keyed.ownerEmail);
      const jar = new Map<string, string>([
        [person.cookie.split('=')[0]!, person.cookie.slice(person.cookie.indexOf('=') + 1)],
      ]);
      const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const verifier = randomBytes(32).toString('base64url');
      const authorizeUrl = new URL(`${served.baseUrl}/oauth/authorize`);
      for (const [key, value] of Object.entries({
        client_id: provider.client!.client_id,
        response_type: 'code',
        redirect_uri: REDIRECT_URL,
        scope: 'mcp',
        state: 'st',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        resource: `${served.baseUrl}/mcp`,
      })) {
        authorizeUrl.searchParams.set(key, value);
      }
      /** Follows redirects (posting the consent form once) until the client's redirect URI or a sign-in page. */
      async function travel(): Promise<URL> {
        let current = authorizeUrl;
        let form: string | undefined;
        for (let hop = 0; hop < 15; hop++) {
          if (current.href.startsWith(REDIRECT_URL) || current.pathname === '/app/login') return current;
          const response = await fetch(current, {
            method: form ? 'POST' : 'GET',
            redirect: 'manual',
            headers: {
              cookie: cookieHeader(),
              ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: served.baseUrl } : {}),
            },
            ...(form ? { body: form } : {}),
          });
          form = undefined;
          for (const header of response.headers.getSetCookie()) {
            const [pair] = header.split(';');
            jar.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
          }
          const location = response.headers.get('location');
          if (location) {
            current = new URL(location, current);
            continue;
          }
          const html = await response.text();
          const consent =
            /<form method="post" action="([^"]+)">[\s\S]*?name="_csrf" value="([^"]+)"[\s\S]*?<option value="([^"]+)"/.exec(
              html,
            );
          if (!consent) throw new Error(`no consent form: ${html.slice(0, 200)}`);
          current = new URL(consent[1]!, current);
          form = new URLSearchParams({
            _csrf: consent[2]!,
            workspace: consent[3]!,
            decision: 'allow',
            toolset: 'core',
          }).toString();
        }
        throw new Error('too many redirects');
      }
      expect((await travel()).searchParams.get('code')).toBeTruthy();
      const loggedOut = await fetch(`${served.baseUrl}/app/logout`, {
        method: 'POST',
        headers: { cookie: cookieHeader(), origin: served.baseUrl, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(loggedOut.status).toBe(200);
      jar.delete('sb_session');
      const after = await travel();
      expect(after.pathname).toBe('/app/login');
      expect(after.searchParams.get('code')).toBeNull();
    },
  );
});

describe('connecting and disconnecting an MCP client', () => {
  it('runs no Prisma query: sign-in, consent (with its audit entry), token and revocation in plain SQL', async () => {
    // Prisma's first query loads its WebAssembly query compiler (20–27 MB resident): an instance whose only
    // writes are these would otherwise carry it for an audit entry (docs/decisions/quiet-memory.md).
    const keyed = await createKeyedWorkspace(served.t.database);
    await personWithPassword(served.t.database, { email: keyed.ownerEmail });
    const statements = await statementsDuring(async () => {
      const person = await signIn(served.t.app, keyed.ownerEmail);
      const app = new TestOAuthProvider({ cookie: person.cookie, workspaceId: keyed.workspace.id }, 'Plain SQL app');
      await (await connectMcp(served.baseUrl, app)).close();
      const revoked = await fetch(`${served.baseUrl}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: app.saved!.refresh_token!, client_id: app.client!.client_id }).toString(),
      });
      expect(revoked.status).toBe(200);
      await expect
        .poll(async () =>
          (
            await served.t.database.pool.query('SELECT action FROM audit_log WHERE workspace_id = $1', [
              keyed.workspace.id,
            ])
          ).rows
            .map((row: { action: string }) => row.action)
            .sort(),
        )
        .toEqual(expect.arrayContaining(['mcp.client_authorized', 'mcp.grant_revoked']));
    });
    expect(statements.filter((text) => /\baudit_log\b/.test(text) && text.startsWith('INSERT')).length).toBeGreaterThan(
      1,
    );
    // Prisma's SQL names every table with its schema, quoted.
    expect(statements.filter((text) => text.includes('"public".'))).toEqual([]);
  });
});

describe('revocations are audited', () => {
  it('revoking a refresh token at /oauth/revoke records the grant revocation in the workspace', async () => {
    const keyed = await createKeyedWorkspace(served.t.database);
    await personWithPassword(served.t.database, { email: keyed.ownerEmail });
    const person = await signIn(served.t.app, keyed.ownerEmail);
    const other = new TestOAuthProvider({ cookie: person.cookie, workspaceId: keyed.workspace.id }, 'Revoked app');
    (await connectMcp(served.baseUrl, other)).close();
    const revoked = await fetch(`${served.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: other.saved!.refresh_token!, client_id: other.client!.client_id }).toString(),
    });
    expect(revoked.status).toBe(200);
    await expect
      .poll(() =>
        served.t.database.prisma.auditLogEntry.count({
          where: { workspaceId: keyed.workspace.id, action: 'mcp.grant_revoked' },
        }),
      )
      .toBe(1);
    expect((await call(served.t.app, person, 'GET', '/app/settings/mcp').then(json)).data.connectedApps).toEqual([]);
  });
});
