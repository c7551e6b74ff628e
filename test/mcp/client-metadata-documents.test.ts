// Client ID Metadata Documents: an MCP client that knows only the server URL connects with an
// https client_id whose document this test serves (self-signed, trusted for this process only),
// and every hostile document or address is refused before a code is issued.
import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, REDIRECT_URL, TestOAuthProvider } from '../support/mcp.js';
import { CLIENT_METADATA_FETCH_POLICY } from '../../src/mcp/oauth/client-metadata-documents.js';

const hits = new Map<string, number>();
let documents: https.Server;
let documentsOrigin = '';
const pending: Array<() => void> = [];

/** The documents this "client vendor" publishes, by path; `url` is the document's own URL. */
function documentFor(
  path: string,
  url: string,
): { status: number; headers?: Record<string, string>; body?: string } | 'hang' {
  const valid = {
    client_id: url,
    client_name: 'Metadata Client',
    redirect_uris: [REDIRECT_URL],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'mcp offline_access',
  };
  switch (path) {
    case '/clients/good.json':
    case '/clients/second.json':
    case '/clients/third.json':
      return { status: 200, body: JSON.stringify(valid) };
    case '/clients/hostile-name.json':
      return { status: 200, body: JSON.stringify({ ...valid, client_name: '<img src=x onerror=alert(1)>Claude' }) };
    case '/clients/impostor.json':
      return { status: 200, body: JSON.stringify({ ...valid, client_id: `${documentsOrigin}/clients/good.json` }) };
    case '/clients/moved.json':
      return { status: 302, headers: { location: `${documentsOrigin}/clients/good.json` } };
    case '/clients/huge.json':
      return {
        status: 200,
        body: JSON.stringify({
          ...valid,
          client_name: 'x'.repeat(40),
          policy_uri: `https://example.com/${'p'.repeat(6_000)}`,
        }),
      };
    case '/clients/plain-http-redirect.json':
      return { status: 200, body: JSON.stringify({ ...valid, redirect_uris: ['http://callback.example/cb'] }) };
    case '/clients/secret.json':
      return { status: 200, body: JSON.stringify({ ...valid, token_endpoint_auth_method: 'client_secret_basic' }) };
    case '/clients/slow.json':
      return 'hang';
    default:
      return { status: 404 };
  }
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cimd-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const [key, cert] = [readFileSync(join(dir, 'key.pem')), readFileSync(join(dir, 'cert.pem'))];
    // The service's outbound requests use the global agent: trusting the test's certificate there is all it takes.
    https.globalAgent.options.ca = cert;
    documents = https.createServer({ key, cert }, (req, res) => {
      const path = new URL(req.url!, 'https://localhost').pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const answer = documentFor(path, `${documentsOrigin}${path}`);
      if (answer === 'hang') return void pending.push(() => res.destroy());
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    documentsOrigin = `https://localhost:${(documents.address() as AddressInfo).port}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

afterAll(async () => {
  for (const release of pending) release();
  await new Promise((resolve) => documents.close(resolve));
});

/** GET /oauth/authorize for a client id, as a browser would open it; the status and the page. */
async function authorize(baseUrl: string, clientId: string, redirectUri = REDIRECT_URL, address?: string) {
  const url = new URL(`${baseUrl}/oauth/authorize`);
  const verifier = randomBytes(32).toString('base64url');
  const params = {
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'mcp',
    state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${baseUrl}/mcp`,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await fetch(url, {
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
    headers: address ? { 'x-forwarded-for': address } : {},
  });
  return { status: response.status, location: response.headers.get('location'), page: await response.text() };
}

describe('with documents reachable (loopback allowed, as in development)', () => {
  // Behind a trusted proxy, so that a test can speak from an address of its own (the fetch limit is per address).
  const served = useListeningApp({ OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true', TRUST_PROXY: 'true' });
  let owner: { cookie: string };
  let workspaceId: string;

  beforeAll(async () => {
    const keyed = await createKeyedWorkspace(served.t.database);
    workspaceId = keyed.workspace.id;
    await personWithPassword(served.t.database, { email: keyed.ownerEmail });
    owner = await signIn(served.t.app, keyed.ownerEmail);
  });

  it('advertises CIMD with public clients, as Claude requires before it uses it', async () => {
    const metadata = await (await fetch(`${served.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
    expect(metadata.registration_endpoint).toBeTruthy();
  });

  it(
    'connects a client known only by its document URL: no registration, the domain named ' +
      'as verified, one fetch for two sign-ins',
    async () => {
      const clientId = `${documentsOrigin}/clients/good.json`;
      const clientsBefore = (
        await served.t.database.pool.query("SELECT count(*)::int AS n FROM oauth_models WHERE model = 'Client'")
      ).rows[0].n;
      const provider = new TestOAuthProvider({ cookie: owner.cookie, workspaceId });
      provider.clientMetadataUrl = clientId;
      const client = await connectMcp(served.baseUrl, provider);
      try {
        expect(provider.client?.client_id).toBe(clientId);
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('whoami');
      } finally {
        await client.close();
      }
      expect(provider.consentPage).toContain('Verified domain');
      expect(provider.consentPage).toContain(new URL(documentsOrigin).host);
      // The page's layout (whitespace between cells) is Prettier's; the row is what counts.
      expect(provider.consentPage).toMatch(/Sends you back to<\/th>\s*<td><strong>127\.0\.0\.1:1<\/strong>/);
      expect(provider.consentPage).not.toContain('Not verified by Signalboard');
      expect(
        (await served.t.database.pool.query("SELECT count(*)::int AS n FROM oauth_models WHERE model = 'Client'"))
          .rows[0].n,
      ).toBe(clientsBefore);

      const again = new TestOAuthProvider({ cookie: owner.cookie, workspaceId });
      again.clientMetadataUrl = clientId;
      await (await connectMcp(served.baseUrl, again)).close();
      expect(hits.get('/clients/good.json')).toBe(1);
      const grants = await served.t.database.pool.query('SELECT client_name FROM mcp_grants WHERE client_id = $1', [
        clientId,
      ]);
      expect(grants.rowCount).toBe(2);
    },
  );

  it(
    "shows a hostile client_name as text: the name is the document's claim, the domain " + 'is what is verified',
    async () => {
      const provider = new TestOAuthProvider({ cookie: owner.cookie, workspaceId });
      provider.clientMetadataUrl = `${documentsOrigin}/clients/hostile-name.json`;
      await (await connectMcp(served.baseUrl, provider)).close();
      expect(provider.consentPage).not.toContain('<img src=x');
      expect(provider.consentPage).toContain('&lt;img src=x onerror=alert(1)&gt;Claude');
      expect(provider.consentPage).toContain(`<strong>${new URL(documentsOrigin).host}</strong>`);
    },
  );

  it('refuses a redirect URI the document does not list exactly', async () => {
    const clientId = `${documentsOrigin}/clients/second.json`;
    for (const redirectUri of [`${REDIRECT_URL}/other`, 'http://127.0.0.1:2/callback', `${REDIRECT_URL}?x=1`]) {
      const answer = await authorize(served.baseUrl, clientId, redirectUri);
      expect(answer.status).toBe(400);
      expect(answer.page).toContain('invalid_redirect_uri');
    }
    const listed = await authorize(served.baseUrl, clientId);
    expect([303, 302]).toContain(listed.status);
    expect(listed.location).toContain('/oauth/interaction/');
  });

  it.each([
    ['whose client_id names another document', '/clients/impostor.json'],
    ['that redirects elsewhere', '/clients/moved.json'],
    ['larger than 5 KB', '/clients/huge.json'],
    ['that never answers', '/clients/slow.json'],
    ['that does not exist', '/clients/missing.json'],
    ['with a plain-http redirect URI (the registration limits)', '/clients/plain-http-redirect.json'],
    ['that asks for a shared secret', '/clients/secret.json'],
  ])('refuses a document %s, without a 500 or a hang', async (_what, path) => {
    const started = performance.now();
    const answer = await authorize(served.baseUrl, `${documentsOrigin}${path}`);
    expect(answer.status).toBe(400);
    expect(answer.page).toMatch(/invalid_client/);
    expect(performance.now() - started).toBeLessThan(10_000);
    // One request to the document's host per authorization request, though the provider looks the client up twice.
    expect(hits.get(path)).toBe(1);
  });

  it(
    'fetches at most 30 unknown documents an hour for one address, even in parallel; ' +
      'other addresses still connect',
    async () => {
      const flood = () =>
        [...hits].filter(([path]) => path.startsWith('/clients/flood-')).reduce((sum, [, n]) => sum + n, 0);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          authorize(served.baseUrl, `${documentsOrigin}/clients/flood-${i}.json`, REDIRECT_URL, '192.0.2.50'),
        ),
      );
      expect(answers.every((answer) => answer.status === 400)).toBe(true);
      expect(flood()).toBe(CLIENT_METADATA_FETCH_POLICY.limit);
      const more = await authorize(
        served.baseUrl,
        `${documentsOrigin}/clients/flood-extra.json`,
        REDIRECT_URL,
        '192.0.2.50',
      );
      expect([more.status, flood()]).toEqual([400, CLIENT_METADATA_FETCH_POLICY.limit]);
      const elsewhere = await authorize(
        served.baseUrl,
        `${documentsOrigin}/clients/third.json`,
        REDIRECT_URL,
        '192.0.2.51',
      );
      expect([elsewhere.location, hits.get('/clients/third.json')]).toEqual([
        expect.stringContaining('/oauth/interaction/'),
        1,
      ]);
    },
  );

  it('never fetches a client_id that is not an https URL with a path', async () => {
    for (const clientId of [
      `http://localhost:${new URL(documentsOrigin).port}/clients/good.json`,
      `${documentsOrigin}/clients/../clients/good.json`,
      `${documentsOrigin}/clients/good.json#x`,
    ]) {
      const before = hits.get('/clients/good.json') ?? 0;
      const answer = await authorize(served.baseUrl, clientId);
      expect(answer.status).toBe(400);
      expect(hits.get('/clients/good.json') ?? 0).toBe(before);
    }
  });
});

describe('with the production outbound policy', () => {
  const served = useListeningApp({ OUTBOUND_ALLOW_PRIVATE_TARGETS: 'false' });

  it('refuses documents at loopback, private and non-443 addresses without fetching them', async () => {
    const before = [...hits.values()].reduce((sum, n) => sum + n, 0);
    for (const clientId of [
      `${documentsOrigin}/clients/second.json`,
      'https://127.0.0.1/clients/a.json',
      'https://10.0.0.1/clients/a.json',
      'https://[::1]/clients/a.json',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      const answer = await authorize(served.baseUrl, clientId);
      expect(answer.status).toBe(400);
      expect(answer.page).toMatch(/invalid_client/);
    }
    expect([...hits.values()].reduce((sum, n) => sum + n, 0)).toBe(before);
  });
});
