// A malformed request path (percent-escapes that are not UTF-8, an escaped control character, a
// target that is no path, an odd Host) is answered 400 or 404 with the error envelope at every
// door, never 500 (a URIError on /app) and never 200 (/mcp answered one with the error inside).
// Sent as raw HTTP so the bytes reach the server exactly as written.
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';
import { createKeyedWorkspace } from '../support/app.js';
import { personWithPassword, signIn } from '../support/web.js';
import { decodePath, isOriginForm } from '../../src/http/request-path.js';

const INGEST_TOKEN = 'i'.repeat(40);
const server = useListeningApp({ INGEST_TOKEN });
const credentials = { key: '', cookie: '' };

beforeAll(async () => {
  const keyed = await createKeyedWorkspace(server.t.database);
  credentials.key = keyed.key.secret;
  await personWithPassword(server.t.database, { email: keyed.ownerEmail });
  credentials.cookie = (await signIn(server.t.app, keyed.ownerEmail)).cookie;
});

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** Sends one request as raw bytes (Connection: close) and reads the answer, chunked or not. */
function raw(requestLine: string, headers: string[]): Promise<Answer> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const head = [requestLine, ...headers, 'Content-Length: 0', 'Connection: close'].join('\r\n');
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head = '', ...rest] = text.split('\r\n\r\n');
      let body = rest.join('\r\n\r\n');
      const chunked = /^transfer-encoding: chunked/im.test(head);
      if (chunked)
        body = body
          .split('\r\n')
          .filter((_, index) => index % 2 === 1)
          .join('');
      resolve({
        status: Number(head.split(' ')[1]),
        contentType: /^content-type: (.*)$/im.exec(head)?.[1] ?? '',
        body,
      });
    });
  });
}

type Credential = 'none' | 'key' | 'session' | 'ingest';
const send = (method: string, target: string, credential: Credential = 'none', host = new URL(server.baseUrl).host) => {
  const headers = host === '' ? [] : [`Host: ${host}`];
  if (credential === 'key') headers.push(`Authorization: Bearer ${credentials.key}`);
  if (credential === 'session') headers.push(`Cookie: ${credentials.cookie}`);
  if (credential === 'ingest') headers.push(`Authorization: Bearer ${INGEST_TOKEN}`);
  return raw(`${method} ${target} HTTP/1.1`, headers);
};

const expectEnvelope = (answer: Answer, statuses: number[]) => {
  expect(statuses, `${answer.status} ${answer.body.slice(0, 300)}`).toContain(answer.status);
  expect(answer.contentType).toMatch(/^application\/json/);
  const envelope = { code: expect.any(String), message: expect.any(String), requestId: expect.stringMatching(/^req_/) };
  expect(JSON.parse(answer.body).error).toMatchObject(envelope);
};

const MALFORMED = ['%E0%A4%A', '%FF', '%00', '%0A', '%7F', '%', '%zz'];

// Each door with the credential that gets a request furthest into it.
const DOORS: [door: string, method: string, path: (segment: string) => string, credential: Credential][] = [
  ['v1 endpoint', 'GET', (segment) => `/api/v1/reports/${segment}`, 'key'],
  ['v1 unknown path', 'GET', (segment) => `/api/v1/${segment}`, 'key'],
  ['v1 export', 'GET', (segment) => `/api/v1/ai-visibility/projects/${segment}/answers`, 'key'],
  ['/graphql', 'POST', (segment) => `/graphql/${segment}`, 'key'],
  ['GraphiQL assets', 'GET', (segment) => `/graphql/assets/${segment}`, 'none'],
  ['/mcp toolsets', 'POST', (segment) => `/mcp/x/${segment}`, 'none'],
  ['/mcp toolsets, read-only', 'POST', (segment) => `/mcp/x/reports,${segment}/readonly`, 'key'],
  ['protected-resource metadata', 'GET', (segment) => `/.well-known/oauth-protected-resource${segment}`, 'none'],
  ['OAuth token', 'POST', (segment) => `/oauth/token${segment}`, 'none'],
  ['OAuth consent', 'GET', (segment) => `/oauth/interaction/${segment}`, 'session'],
  ['OAuth metadata', 'GET', (segment) => `/.well-known/openid-configuration${segment}`, 'none'],
  ['report page', 'GET', (segment) => `/app/reports/${segment}`, 'session'],
  ['answers page', 'GET', (segment) => `/app/ai-visibility/${segment}/answers`, 'session'],
  ['settings', 'POST', (segment) => `/app/settings/webhooks/${segment}`, 'session'],
  ['sign-in', 'POST', (segment) => `/app/login${segment}`, 'none'],
  ['single sign-on', 'GET', (segment) => `/app/sso/start${segment}`, 'none'],
  ['view assets', 'GET', (segment) => `/app/assets/views/${segment}`, 'session'],
  ['ingest', 'POST', (segment) => `/internal/ingest/${segment}`, 'ingest'],
  ['health', 'GET', (segment) => `/healthz${segment}`, 'none'],
  ['root', 'GET', (segment) => `/${segment}`, 'none'],
];

describe('a malformed path', () => {
  it.each(DOORS)(
    'is 400 with the envelope at the %s door, whatever the escape',
    async (_door, method, path, credential) => {
      for (const segment of MALFORMED) expectEnvelope(await send(method, path(segment), credential), [400]);
    },
  );

  it('is refused before a view page decodes it (500 before) and before /mcp reads it (200 before)', async () => {
    const page = await send('GET', '/app/reports/%E0%A4%A', 'session');
    expectEnvelope(page, [400]);
    expect(JSON.parse(page.body).error.code).toBe('bad_request');
    expectEnvelope(await send('POST', '/mcp/x/%FF'), [400]);
  });

  it(
    'leaves well-formed escapes alone (an escaped id is ' + 'looked up: 404); an unknown OAuth path has the envelope',
    async () => {
      expectEnvelope(await send('GET', '/api/v1/reports/rep_%41aaaaaaaaaaaaaaaaaaa', 'key'), [404]);
      expectEnvelope(await send('GET', '/oauth/nothing-here'), [404]);
      expectEnvelope(await send('GET', '/mcp/%C3%A9'), [404]);
    },
  );
});

describe('a request target or Host that is no path or host', () => {
  // An absolute-form target that parses (`http://x/api/v1/clients`) is served: test/http/node-server.test.ts.
  const TARGETS = ['*', 'http://[/oauth/token', 'api/v1/clients'];
  it.each(TARGETS)('refuses the target %s with 400 and the envelope (500 before)', async (target) => {
    expectEnvelope(await send('GET', target, 'key'), [400]);
  });

  const HOSTS = ['a b', '[zz]', '127.0.0.1:99999', 'a/b', ''];
  it.each(HOSTS)('refuses Host "%s" with 400 and the envelope at the MCP and page doors', async (host) => {
    expectEnvelope(await send('POST', '/mcp', 'none', host), [400]);
    expectEnvelope(await send('GET', '/app/reports/%FF', 'session', host), [400]);
  });

  it('answers a long path within the header limit 404, one past it 431, both with the envelope', async () => {
    expectEnvelope(await send('GET', `/api/v1/${'a'.repeat(12_000)}`, 'key'), [404]);
    expectEnvelope(await send('GET', `/app/reports/${'%FF'.repeat(4_000)}`, 'session'), [400]);
    expectEnvelope(await send('GET', `/api/v1/${'a'.repeat(20_000)}`, 'key'), [431]);
  });
});

describe('decodePath', () => {
  it('decodes UTF-8 escapes and refuses broken ones and control characters with bad_request', () => {
    expect(decodePath('caf%C3%A9%20%2F')).toBe('café /');
    const refusal = expect.objectContaining({ code: 'bad_request', status: 400 });
    for (const broken of MALFORMED) expect(() => decodePath(`x${broken}`)).toThrow(refusal);
    expect(() => decodePath('a\u0000b')).toThrow(expect.objectContaining({ code: 'bad_request' }));
  });

  it('takes only origin-form targets', () => {
    expect(isOriginForm('/mcp?x=1')).toBe(true);
    for (const target of ['*', 'http://x/mcp', 'mcp', '//[', undefined]) expect(isOriginForm(target)).toBe(false);
  });
});
