// Every error answer is small, whatever the input (issue 48): a door that quotes what the caller
// sent (a parameter's value, a field's name, a variable, a tool's argument, an ingest line) answers
// at most ERROR_BODY_MAX_BYTES, naming the first problems and counting the rest. Each door is fed
// the largest hostile input its body limit lets through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ERROR_BODY_MAX_BYTES, errorResponse } from '../../src/http/responses.js';
import { ApiError, clippedText, ERROR_TEXT_LIMITS } from '../../src/errors/index.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { listen } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { createProject } from '../support/projects.js';

const TOKEN = 'e'.repeat(40);
let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let mcp: Client;
let key: string;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN, RATE_LIMIT_AGENCY: '1000000/1000000' });
  server = await listen(t.app);
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  projectId = (
    await createProject(t.database, keyed.workspace.id, { name: 'Hostile', models: ['chatgpt'], locales: ['en-US'] })
  ).id;
  await personWithPassword(t.database, { email: keyed.ownerEmail });
  const provider = new TestOAuthProvider({
    cookie: (await signIn(t.app, keyed.ownerEmail)).cookie,
    workspaceId: keyed.workspace.id,
  });
  mcp = await connectMcp(server.baseUrl, provider, '/mcp/x/all');
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await t?.close();
});

/**
 * The answer's body, checked small; parsed. GraphQL answers a document that does not validate
 * with 200 (its media type's rule).
 */
async function smallBody(response: Response) {
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(response.status).toBeLessThan(500);
  expect(bytes.byteLength, `${response.status} of ${bytes.byteLength} bytes`).toBeLessThanOrEqual(ERROR_BODY_MAX_BYTES);
  return JSON.parse(bytes.toString());
}

const ingest = (body: BodyInit) =>
  t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body,
    }),
  );
const graphql = (query: string, variables: Record<string, unknown> = {}) =>
  t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    }),
  );

describe('the error envelope', () => {
  it('clips a message and a param of any length, and drops details that would not fit', async () => {
    const error = new ApiError('invalid_parameter', 'x'.repeat(1_000_000), { param: 'p'.repeat(1_000_000) });
    expect(error.message).toHaveLength(ERROR_TEXT_LIMITS.message);
    expect(error.param).toHaveLength(ERROR_TEXT_LIMITS.param);
    const body = await smallBody(
      errorResponse(
        error,
        'req_1',
        {},
        { lines: Array.from({ length: 10_000 }, (_, line) => ({ line, message: 'y'.repeat(100) })) },
      ),
    );
    expect(body.error).toEqual({
      code: 'invalid_parameter',
      message: expect.stringMatching(/^x+…$/),
      param: expect.stringMatching(/^p+…$/),
      requestId: 'req_1',
    });
  });

  it('never cuts between the halves of a surrogate pair', () => {
    expect(clippedText(`${'a'.repeat(8)}😀b`, 10)).toBe(`${'a'.repeat(8)}…`);
    expect(clippedText(`${'a'.repeat(7)}😀bc`, 10)).toBe(`${'a'.repeat(7)}😀…`);
  });
});

describe('a hostile input at each door', () => {
  it('ingest: 200 000 lines whose arrays hold numbers where objects belong', async () => {
    const line = JSON.stringify({
      project: projectId,
      date: '2026-10-01',
      model: 'chatgpt',
      locale: 'en-US',
      runs: Array(1000).fill(7),
      competitors: Array(50).fill(7),
    });
    const body = await smallBody(await ingest(Array(200).fill(line).join('\n')));
    expect(body.error.code).toBe('invalid_body');
    expect(body.error.lines[0]).toEqual({ line: 1, message: expect.stringMatching(/^competitors\.0: .*; runs\.0: /) });
    expect(body.error.lines[0].message.length).toBeLessThanOrEqual(500);
  });

  it('v1: a parameter value of 200 000 characters', async () => {
    const body = await smallBody(
      await t.get(`/api/v1/ai-visibility/projects/${projectId}/answers?dateFrom=${'9'.repeat(200_000)}`, key),
    );
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'dateFrom' });
  });

  it('GraphQL: a query of 100 unknown fields with names of 9 000 characters', async () => {
    const query = `{ ${Array.from({ length: 100 }, (_, index) => `${'f'.repeat(9_000)}${index}`).join(' ')} }`;
    const body = await smallBody(await graphql(query));
    expect(body.errors.at(-1).message).toMatch(/^\d+ more errors not listed\.$/);
    expect(body.errors[0].message.length).toBeLessThanOrEqual(ERROR_TEXT_LIMITS.message);
  });

  it('GraphQL: a variable of 900 000 characters where a date belongs', async () => {
    const body = await smallBody(
      await graphql(
        `query($d: Date) { aiVisibilityMetrics(id: "${projectId}", dateFrom: $d) { data { range { from } } } }`,
        { d: '9'.repeat(900_000) },
      ),
    );
    expect(body.errors.length).toBeGreaterThan(0);
  });

  it('MCP: a tool argument of 900 000 characters', async () => {
    const result = await mcp.callTool({
      name: 'get_ai_visibility_metrics',
      arguments: { id: projectId, dateFrom: '9'.repeat(900_000) },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ERROR_BODY_MAX_BYTES);
    expect(JSON.parse(text).error).toMatchObject({ code: 'invalid_parameter', param: 'dateFrom' });
  });
});
