// Issue 7, hostile input: random and adversarial paths, query strings, headers and methods
// against every endpoint. Every answer is a documented status with a valid error envelope;
// never a 500, a stack trace, SQL or a file path. GraphQL refuses over-deep, over-costly and
// batched abuse, and passes the graphql-http server audit.
import fc from 'fast-check';
import { auditServer } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { schema } from '../../src/graphql/schema.js';

let t: TestApp;
let key: string;
let reportId: string;
let projectId: string;

beforeAll(async () => {
  // The graphql-http audit fires its requests of one workspace at once: no limit of the workspace's is under test here.
  // Hundreds of wrong Authorization headers from one address: its failed-authentication bucket stays out of the way.
  t = await createTestApp({
    RATE_LIMIT_AGENCY: '1000000/1000000',
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
    AUTH_FAILURES_PER_ADDRESS: '1000000/1000000',
  });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 3, clients: 1 });
  reportId = (await t.database.prisma.report.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
  projectId = (await t.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
});
afterAll(() => t.close());

const DOCUMENTED = new Set([200, 400, 401, 403, 404, 405, 429]);
const LEAKS = /(\bat [\w.<>]+ \(|node_modules|\/src\/|\.ts:\d+|SELECT |INSERT |prisma|TypeError|ReferenceError)/i;

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    '%00',
    '\u0000',
    '../../etc/passwd',
    '%2e%2e%2f',
    "' OR 1=1 --",
    '"; DROP TABLE clients; --',
    '<script>alert(1)</script>',
    '${jndi:ldap://x}',
    '%E0%A4%A',
    '%',
    '%%',
    'rep_',
    'cli_AAAAAAAAAAAAAAAAAAAA',
    '2026-02-30',
    '9999-99-99',
    '-1',
    'NaN',
    'null',
    '[]',
    '{}',
    '𝕊𝕚𝕘𝕟𝕒𝕝',
    'last_7_days',
    'chatgpt',
  ),
  fc.nat({ max: 100_000 }).map((n) => 'x'.repeat(n % 20_000)),
);

const endpoints = () => [
  '/api/v1/clients',
  '/api/v1/reports',
  `/api/v1/reports/${reportId}`,
  `/api/v1/reports/${reportId}/data`,
  '/api/v1/ai-visibility/projects',
  `/api/v1/ai-visibility/projects/${projectId}/metrics`,
];

async function expectDocumented(request: Request) {
  const response = await t.app.fetch(request);
  const text = await response.text();
  expect(
    DOCUMENTED.has(response.status),
    `${request.method} ${request.url.slice(0, 200)} → ${response.status} ${text.slice(0, 200)}`,
  ).toBe(true);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  if (request.method === 'HEAD') return;
  const body = JSON.parse(text);
  if (response.status >= 400) {
    expect(typeof body.error.code).toBe('string');
    expect(typeof body.error.message).toBe('string');
  } else {
    expect(body).toHaveProperty('data');
    expect(body).toHaveProperty('meta');
  }
  expect(text).not.toMatch(LEAKS);
}

describe('v1 under hostile input', () => {
  it('answers random query strings on every endpoint with a documented status and envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints()),
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom('clientId', 'datePreset', 'comparePreset', 'model', 'dateFrom', 'dateTo', 'id'),
              nasty,
            ),
            nasty,
          ),
          { maxLength: 6 },
        ),
        async (path, pairs) => {
          const query = pairs
            .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
            .join('&');
          await expectDocumented(
            new Request(`http://test.local${path}?${query}`, { headers: { authorization: `Bearer ${key}` } }),
          );
        },
      ),
      { numRuns: 250 },
    );
  });

  it('answers random paths and raw (unencoded) segments with a documented status', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            nasty,
            fc.constantFrom('reports', 'clients', 'data', 'metrics', 'ai-visibility', 'projects', reportId, projectId),
          ),
          { minLength: 0, maxLength: 5 },
        ),
        fc.boolean(),
        async (segments, encode) => {
          const path = `/api/v1/${segments.map((segment) => (encode ? encodeURIComponent(segment) : segment.replace(/[?#]/g, ''))).join('/')}`;
          let request: Request;
          try {
            request = new Request(`http://test.local${path}`, { headers: { authorization: `Bearer ${key}` } });
          } catch {
            return; // not a URL any client could send
          }
          await expectDocumented(request);
        },
      ),
      { numRuns: 250 },
    );
  });

  it('answers malformed, oversized and repeated Authorization headers with 401', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints()),
        fc.array(
          fc.oneof(
            nasty.map((value) => `Bearer ${value}`),
            nasty,
            fc.constant(`Bearer ${key}`),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        async (path, values) => {
          const headers = new Headers();
          for (const value of values) {
            try {
              headers.append('authorization', value);
            } catch {
              return; // not a header value HTTP can carry
            }
          }
          const single = values.length === 1 && values[0] === `Bearer ${key}`;
          const response = await t.app.fetch(new Request(`http://test.local${path}`, { headers }));
          if (!single) expect(response.status, JSON.stringify(values).slice(0, 100)).toBe(401);
          await expectDocumented(new Request(`http://test.local${path}`, { headers }));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers every method with a documented status', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'CONNECTX']) {
      for (const path of endpoints()) {
        await expectDocumented(
          new Request(`http://test.local${path}`, {
            method,
            headers: { authorization: `Bearer ${key}` },
            ...(['POST', 'PUT', 'PATCH'].includes(method) ? { body: '{"x":1}' } : {}),
          }),
        );
      }
    }
  });
});

describe('GraphQL under abuse', () => {
  const post = (body: unknown) =>
    t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      }),
    );

  it('rejects over-deep queries', async () => {
    // The limit is 10 (a client page is 9 deep); __type (unlike __schema) counts towards it.
    const deep =
      '{ __type(name: "Query") { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ' +
      'ofType { ofType { name } } } } } } } } } } } }';
    const body = await (await post({ query: deep })).json();
    expect(body.errors?.[0]?.message).toMatch(/depth/i);
  });

  it('rejects alias flooding and over-costly queries', async () => {
    const aliases = Array.from({ length: 50 }, (_, i) => `a${i}: clients { meta { total } }`).join(' ');
    const body = await (await post({ query: `{ ${aliases} }` })).json();
    expect(body.errors?.[0]?.message).toMatch(/alias|cost/i);
    expect(body.data ?? null).toBeNull();
  });

  it('refuses batched requests', async () => {
    const response = await post([
      { query: '{ clients { meta { total } } }' },
      { query: '{ clients { meta { total } } }' },
    ]);
    expect(response.status).toBe(400);
    // In the envelope every refusal of /graphql before GraphQL runs has (doors/graphql-refusals.ts).
    expect((await response.json()).error).toMatchObject({
      code: 'invalid_body',
      message: 'Send one operation per request; batches are not taken.',
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('has no mutations: the schema is read-only', async () => {
    expect(schema.getMutationType()).toBeUndefined();
    const body = await (await post({ query: 'mutation { x }' })).json();
    // Refused for want of a Mutation type, not for the unknown field x.
    expect(body.errors?.[0]?.message).toBe('This API is read-only: it runs queries, not mutations.');
  });

  it('passes the graphql-http server audit (every MUST)', async () => {
    const results = await auditServer({
      url: 'http://test.local/graphql',
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        request.headers.set('authorization', `Bearer ${key}`);
        return t.app.fetch(request);
      },
    });
    const failedMusts = results.flatMap((result) =>
      result.status === 'error' ? [`${result.name}: ${result.reason}`] : [],
    );
    expect(failedMusts).toEqual([]);
  }, 60_000);
});
