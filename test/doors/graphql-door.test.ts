// What /graphql refuses before GraphQL runs: a method it does not serve, a GET whose JSON
// parameters do not parse, an Accept header it cannot serve. All are the caller's mistakes: the
// envelope with 405, 400 or 406, never a logged 500 nor an empty body.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';

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
    expect(answer.allow).toBe('GET, POST, OPTIONS');
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
