// What /graphql refuses before GraphQL runs: a method it does not serve, a GET whose JSON
// parameters do not parse, an Accept header it cannot serve, a body of another media type or not
// JSON, a cookie request without the CSRF header. All are the caller's mistakes: the envelope
// with its code and request id, never a logged 500, an empty body or the body sent back.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';
import { createKeyedWorkspace } from '../support/app.js';
import { newId } from '../../src/db/ids.js';
import { signIn, personWithPassword } from '../support/web.js';

const server = useListeningApp();

/** A request as any HTTP client may send it (fetch refuses TRACE itself). */
function send(
  method: string,
  path: string,
  accept = 'application/json',
): Promise<{ status: number; allow?: string; body: any }> {
  return new Promise((resolve, reject) => {
    const headers = { Accept: accept, 'Content-Type': 'application/json' };
    const outgoing = request(`${server.baseUrl}${path}`, { method, headers });
    outgoing.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          allow: response.headers.allow,
          body: text ? JSON.parse(text) : null,
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(method === 'POST' ? JSON.stringify({ query: '{ __typename }' }) : undefined);
  });
}

describe('/graphql before GraphQL', () => {
  it.each(['TRACE', 'PUT', 'DELETE', 'PATCH'])('refuses %s with 405, Allow and the envelope', async (method) => {
    const answer = await send(method, '/graphql');
    expect(answer.status).toBe(405);
    expect(answer.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(answer.body.error.code).toBe('method_not_allowed');
  });

  it.each(['variables', 'extensions'])('refuses a GET whose %s is not JSON with 400 naming it', async (name) => {
    const answer = await send('GET', `/graphql?query=%7B__typename%7D&${name}=%7Bbad`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'bad_request', param: name });
  });

  it.each(['GET', 'POST'])('refuses %s with an Accept it cannot serve with 406 and the envelope', async (method) => {
    const answer = await send(method, '/graphql?query=%7B__typename%7D', 'text/plain, image/png');
    expect(answer.status).toBe(406);
    expect(answer.body?.error.code).toBe('not_acceptable');
    expect(answer.body.error.message).toContain('application/graphql-response+json, application/json');
    expect(answer.body.error.requestId).toMatch(/^req_/);
  });
});

describe('/graphql refusing a body', () => {
  const post = async (body: BodyInit, headers: Record<string, string>) => {
    const response = await fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers, body });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), text, body: JSON.parse(text) };
  };
  const keyed = async () => `Bearer ${(await createKeyedWorkspace(server.t.database)).key.secret}`;

  it('refuses another media type with 400 invalid_body in the envelope, not an empty 415', async () => {
    const answer = await post('{ __typename }', { 'content-type': 'text/plain', authorization: await keyed() });
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^application\/json/);
    expect(answer.body.error).toMatchObject({ code: 'invalid_body', requestId: expect.stringMatching(/^req_/) });
    expect(answer.body.error.message).toContain('application/json');
  });

  it('refuses a body that is not JSON with a short error that does not echo it', async () => {
    const sent = `{"query": "${'x'.repeat(200_000)}`;
    const answer = await post(sent, { 'content-type': 'application/json', authorization: await keyed() });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_body', message: 'The body is not valid JSON.' });
    expect(answer.text.length).toBeLessThan(300);
  });

  it.each([
    ['a batch', '[{"query": "{ __typename }"}]', 'Send one operation per request; batches are not taken.'],
    ['an object without a query', '{}', 'The body must be a JSON object with a query.'],
    ['a query that is not a string', '{"query": 1}', 'The body must be a JSON object with a query.'],
  ])('refuses %s with 400 invalid_body in the envelope', async (_what, sent, message) => {
    const answer = await post(sent, { 'content-type': 'application/json', authorization: await keyed() });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'invalid_body',
      message,
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('refuses a cookie request without the CSRF header with 403 forbidden, its code and request id', async () => {
    const owner = await createKeyedWorkspace(server.t.database);
    await personWithPassword(server.t.database, { email: owner.ownerEmail });
    const { cookie } = await signIn(server.t.app, owner.ownerEmail);
    const answer = await post('query=%7B__typename%7D', {
      'content-type': 'application/x-www-form-urlencoded',
      cookie,
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'forbidden', requestId: expect.stringMatching(/^req_/) });
    expect(answer.body.error.message).toContain('x-graphql-yoga-csrf');
  });
});

describe('HEAD /graphql', () => {
  const head = (path: string, headers: Record<string, string>) =>
    fetch(`${server.baseUrl}${path}`, { method: 'HEAD', headers });

  it('answers as GET does, without the body: the GraphiQL page and a query in the URL', async () => {
    const page = await head('/graphql', { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toBe('');
    const { key } = await createKeyedWorkspace(server.t.database);
    const query = await head('/graphql?query=%7B__typename%7D', { authorization: `Bearer ${key.secret}` });
    expect(query.status).toBe(200);
    expect(query.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json/);
    expect(await query.text()).toBe('');
  });

  it('is refused as GET is: without a key, 401', async () => {
    const refused = await head('/graphql?query=%7B__typename%7D', {});
    expect(refused.status).toBe(401);
  });
});

describe('the status of an answer with errors', () => {
  const query = (key: string, text: string, accept: string, variables: Record<string, unknown> = {}) =>
    fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept },
      body: JSON.stringify({ query: text, variables }),
    });

  it.each(['application/json', 'application/graphql-response+json'])(
    'is 200 (%s) when the answer carries data: a field outside the scopes is null beside the rest',
    async (accept) => {
      const { workspace, key } = await createKeyedWorkspace(server.t.database, { scopes: ['reports:read'] });
      const client = await server.t.database.prisma.client.create({
        data: { id: newId('client'), workspaceId: workspace.id, name: 'Out of scope' },
      });
      const text = 'query($id: ID!) { viewer { scopes } node(id: $id) { id } }';
      const response = await query(key.secret, text, accept, { id: client.id });
      const body = await response.json();
      expect(response.status).toBe(200);
      expect(body.data).toEqual({ viewer: { scopes: ['reports:read'] }, node: null });
      expect(body.errors.map((error: any) => [error.path, error.extensions.code])).toEqual([
        [['node'], 'insufficient_scope'],
      ]);
    },
  );

  it('keeps the status of its errors when there is no data', async () => {
    const { key } = await createKeyedWorkspace(server.t.database, { scopes: ['reports:read'] });
    const response = await query(key.secret, '{ members { email } }', 'application/graphql-response+json');
    const body = await response.json();
    expect(response.status).toBe(403);
    expect(body.data).toBeNull();
    expect(body.errors[0].extensions.code).toBe('forbidden');
  });
});
