// `GET /`: a browser gets a page with the doors, any other client the same doors as JSON; view
// pages answer 404 for an id that is not the workspace's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { seededOwner, signIn } from '../support/web.js';
import { seedWorkspace } from '../../src/demo/seed.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('GET /', () => {
  it('answers a client with the doors as JSON, each one a path that answers', async () => {
    const response = await t.get('/', undefined, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('vary')).toContain('Accept');
    const body = await json(response);
    expect(body.doors.map((door: { rel: string }) => door.rel)).toEqual([
      'sign-in',
      'api-reference',
      'openapi',
      'graphiql',
      'graphql',
      'mcp',
    ]);
    for (const door of body.doors.filter(
      (d: { type: string }) => d.type === 'text/html' || d.type === 'application/json',
    )) {
      const answer = await t.get(door.href, undefined, { headers: { accept: door.type } });
      expect(answer.status, door.href).toBe(200);
    }
    // /mcp takes only the tokens of its OAuth 2.1 server (docs/mcp.md), never an API key.
    const mcp = body.doors.find((door: { rel: string }) => door.rel === 'mcp');
    expect(mcp.description).toBe(
      'Connect an AI assistant (Streamable HTTP): you sign in and consent through OAuth 2.1; no API key.',
    );
    // curl's default Accept: */* reads the JSON too.
    expect((await t.get('/', undefined, { headers: { accept: '*/*' } })).headers.get('content-type')).toMatch(
      /^application\/json/,
    );
  });

  it('answers a browser with a page linking sign-in, the API reference and GraphiQL', async () => {
    const response = await t.get('/', undefined, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'none'");
    const text = await response.text();
    expect(text).toContain('action="/app/login"');
    expect(text).toContain('href="/api/v1/docs"');
    expect(text).toContain('href="/api/v1/openapi.json"');
    expect(text).toContain('href="/graphql"');
  });

  it('gives HTML only to a client that prefers it, by q-value (q=0 is "not acceptable")', async () => {
    const cases: [accept: string | null, type: 'html' | 'json'][] = [
      ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', 'html'],
      ['TEXT/HTML', 'html'],
      ['application/json;q=0.5, text/html', 'html'],
      ['text/*, application/json;q=0.9', 'html'],
      ['*/*', 'json'],
      ['application/json', 'json'],
      [null, 'json'],
      ['text/html;q=0, application/json', 'json'],
      ['text/html; q=0', 'json'],
      ['text/html;q=0.4, application/json;q=0.9', 'json'],
      ['text/html, application/json', 'json'],
      ['text/html;q=0, */*', 'json'],
    ];
    for (const [accept, type] of cases) {
      const headers: Record<string, string> = accept === null ? {} : { accept };
      const response = await t.app.fetch(new Request('http://test.local/', { headers }));
      expect(response.status, String(accept)).toBe(200);
      const expected = type === 'html' ? /^text\/html/ : /^application\/json/;
      expect(response.headers.get('content-type'), String(accept)).toMatch(expected);
    }
  });

  it('is read, not written: POST is 405 with Allow', async () => {
    const response = await t.get('/', undefined, { method: 'POST', headers: { accept: 'application/json' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect((await json(response)).error.code).toBe('method_not_allowed');
  });
});

describe("view pages of an id that is not the workspace's", () => {
  let cookie = '';
  let reportId = '';
  let projectId = '';
  let otherReportId = '';
  beforeAll(async () => {
    const keyed = await seededOwner(t);
    cookie = (await signIn(t.app, keyed.ownerEmail)).cookie;
    reportId = keyed.reportId;
    projectId = (await json(await t.get('/api/v1/ai-visibility/projects', keyed.key.secret))).data[0].id;
    const other = await createKeyedWorkspace(t.database);
    await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: other.workspace.id, days: 3, clients: 1 });
    otherReportId = (await json(await t.get('/api/v1/reports', other.key.secret))).data[0].id;
  }, 120_000);

  const page = (path: string) => t.get(path, undefined, { headers: { cookie, accept: 'text/html' } });

  it("answer 404 with a page that says so; the workspace's own ids answer 200", async () => {
    for (const path of [
      `/app/reports/${reportId}`,
      `/app/ai-visibility/${projectId}`,
      `/app/ai-visibility/${projectId}/answers`,
    ])
      expect((await page(path)).status, path).toBe(200);
    for (const path of [
      '/app/reports/rep_AAAAAAAAAAAAAAAAAAAA',
      `/app/reports/${otherReportId}`,
      '/app/reports/not-an-id',
      `/app/ai-visibility/${reportId}`,
      '/app/ai-visibility/nope/answers',
    ]) {
      const response = await page(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toMatch(/Not found[\s\S]*No such/);
    }
  });

  it('offers a signed-in person their settings, not "Sign in", on / and on a 404 page; the same JSON', async () => {
    const home = await page('/');
    expect(home.headers.get('cache-control')).toBe('no-cache');
    const text = await home.text();
    expect(text).toContain('action="/app/settings"');
    expect(text).not.toContain('Sign in');
    const missing = await page('/app/reports/rep_AAAAAAAAAAAAAAAAAAAA');
    expect(missing.status).toBe(404);
    const notFound = await missing.text();
    expect(notFound).toContain('href="/app/settings"');
    expect(notFound).not.toContain('Sign in');
    // Signed out, the same pages offer signing in.
    const signedOut = async (path: string) =>
      (await t.get(path, undefined, { headers: { accept: 'text/html' } })).text();
    expect(await signedOut('/')).toContain('action="/app/login"');
    expect(await signedOut('/app/nope')).toContain('Sign in');
    const doors = async (headers: Record<string, string>) =>
      json(await t.get('/', undefined, { headers: { accept: 'application/json', ...headers } }));
    expect(await doors({ cookie })).toEqual(await doors({}));
  });
});
