// Requests that never reach the app — rejected by Node's HTTP parser — and oversized bodies
// still answer with the error envelope and a request id.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';

const server = useListeningApp();

/** Sends raw bytes and returns what the server answered before closing. */
function raw(payload: string): Promise<string> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(payload));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    setTimeout(() => reject(new Error(`no answer: ${answer}`)), 5_000).unref();
  });
}

const parse = (answer: string) => {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), head: head!, body: JSON.parse(body!) };
};

describe('below the app', () => {
  it('answers oversized headers with 431 and the envelope', async () => {
    const answer = parse(await raw(`GET /api/v1/clients HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.head).toMatch(/content-type: application\/json/i);
    expect(answer.body.error.code).toBe('request_header_fields_too_large');
    expect(answer.body.error.requestId).toMatch(/^req_/);
    expect(answer.head).toContain(`X-Request-Id: ${answer.body.error.requestId}`);
  });

  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n'],
    ['a bad header', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
    ['a bad Content-Length', 'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
  ])('answers %s with 400 and the envelope', async (_what, payload) => {
    const answer = parse(await raw(payload));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'bad_request', message: expect.any(String), requestId: expect.stringMatching(/^req_/) });
  });

  it('answers a GraphQL body over 1 MiB with 413 and the envelope', async () => {
    const response = await fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(1_100_000) }) });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe('payload_too_large');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
