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
    expect(answer.body.error).toMatchObject({
      code: 'bad_request',
      message: expect.any(String),
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('answers a GraphQL body over 1 MiB with 413 and the envelope', async () => {
    const response = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(1_100_000) }),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe('payload_too_large');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

/**
 * Streams a chunked body of up to `totalBytes` until the server answers; returns the status, how
 * many bytes were sent before the answer, and whether the server closed the connection.
 */
function streamChunked(
  path: string,
  contentType: string,
  totalBytes: number,
): Promise<{ status: number; sentBeforeAnswer: number; closed: boolean; body: string }> {
  const { hostname, port } = new URL(server.baseUrl);
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = -1;
    let answer = '';
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          `Content-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const pump = () => {
        while (answered < 0 && sent < totalBytes && !socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    socket.on('data', (data) => {
      if (answered < 0) answered = sent;
      answer += data.toString();
    });
    const finish = () => {
      const [head, body] = answer.split('\r\n\r\n');
      resolve({ status: Number(head?.split(' ')[1]), sentBeforeAnswer: answered, closed: true, body: body ?? '' });
    };
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => (answer ? finish() : reject(error)));
    setTimeout(() => reject(new Error(`no answer after ${sent} bytes`)), 20_000).unref();
  });
}

describe('bounded bodies', () => {
  it(
    'a 100 MB chunked form is refused with 413 as soon as it ' + 'passes the limit, the connection closed, memory flat',
    async () => {
      global.gc?.();
      const before = process.memoryUsage().rss;
      const result = await streamChunked('/app/login', 'application/x-www-form-urlencoded', 100 * 1024 * 1024);
      expect(result.status).toBe(413);
      expect(result.body).toContain('limited to 65536 bytes');
      // The answer came long before the 100 MB were sent.
      expect(result.sentBeforeAnswer).toBeLessThan(20 * 1024 * 1024);
      expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
    },
  );

  it.each([
    ['/graphql', 'application/json'],
    ['/oauth/token', 'application/x-www-form-urlencoded'],
    ['/oauth/register', 'application/json'],
  ])('a chunked body past the limit on %s is 413 too', async (path, type) => {
    const result = await streamChunked(path, type, 8 * 1024 * 1024);
    expect(result.status).toBe(413);
    expect(JSON.parse(/\{.*\}/s.exec(result.body)![0]).error.code).toBe('payload_too_large');
  });

  it('an endless body without a token on /mcp is answered at once (401), not waited for', async () => {
    const result = await streamChunked('/mcp', 'application/json', 100 * 1024 * 1024);
    expect(result.status).toBe(401);
    expect(result.sentBeforeAnswer).toBeLessThan(20 * 1024 * 1024);
  });

  it('a malformed Host header is 400 on every path, never 500', async () => {
    for (const host of ['a b', '[zz]', 'a/b', 'x:99999', '127.0.0.1:65536']) {
      const answer = parse(await raw(`GET /api/v1/clients HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
      expect(answer.status, host).toBe(400);
      expect(answer.body.error.code).toBe('bad_request');
    }
  });
});

describe('request lines as RFC 9112 allows them', () => {
  const status = async (payload: string) => Number((await raw(payload)).split(' ')[1]);

  it('serves an HTTP/1.0 request without Host (a load balancer health check)', async () => {
    expect(await status('GET /healthz HTTP/1.0\r\n\r\n')).toBe(200);
  });

  it('serves an absolute-form target as its path, addressed to its authority', async () => {
    const { host } = new URL(server.baseUrl);
    expect(await status(`GET http://${host}/healthz HTTP/1.1\r\nHost: other\r\nConnection: close\r\n\r\n`)).toBe(200);
  });

  it('refuses two Host headers with 400 and the envelope', async () => {
    const answer = parse(await raw('GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'));
    expect([answer.status, answer.body.error.code]).toEqual([400, 'bad_request']);
  });

  it('refuses two Authorization headers with 400 and the envelope, on every door', async () => {
    for (const path of ['/api/v1/clients', '/graphql?query=%7B__typename%7D', '/mcp', '/healthz']) {
      const credentials = 'Authorization: Bearer a\r\nauthorization: Bearer b';
      const answer = parse(await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\n${credentials}\r\nConnection: close\r\n\r\n`));
      expect([answer.status, answer.body.error.code], path).toEqual([400, 'bad_request']);
      expect(answer.body.error.message).toBe('The request carries more than one Authorization header.');
      expect(answer.head).toContain(`X-Request-Id: ${answer.body.error.requestId}`);
    }
  });

  it('refuses two Referer headers: the settings check where a change came from, and Node reads one', async () => {
    const referers = 'Referer: http://x/app/settings\r\nReferer: http://evil.example/';
    const answer = parse(
      await raw(`POST /app/settings/mcp HTTP/1.1\r\nHost: x\r\n${referers}\r\nConnection: close\r\n\r\n`),
    );
    expect([answer.status, answer.body.error.code]).toEqual([400, 'bad_request']);
    expect(answer.body.error.message).toBe('The request carries more than one Referer header.');
  });

  it('answers an expectation other than 100-continue with 417 in the envelope, and closes', async () => {
    const answer = parse(await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n\r\n'));
    expect([answer.status, answer.body.error.code]).toEqual([417, 'expectation_failed']);
    expect(answer.head).toMatch(/^Connection: close$/im);
    expect(answer.head).toMatch(/^X-Content-Type-Options: nosniff$/im);
    expect(answer.head).toContain(`X-Request-Id: ${answer.body.error.requestId}`);
  });

  it('still serves a request that expects 100-continue', async () => {
    const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n';
    const answer = await raw(request);
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
  });

  it('answers CONNECT 405 in the envelope instead of dropping the socket', async () => {
    const answer = parse(await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect([answer.status, answer.body.error.code]).toEqual([405, 'method_not_allowed']);
    expect(answer.head).toMatch(/^Allow: GET$/im);
  });
});

describe('X-Content-Type-Options', () => {
  it("is nosniff on every answer of every door, the parser's and the Host check's included", async () => {
    const paths = [
      '/api/v1/clients',
      '/api/v1/openapi.json',
      '/graphql?query=%7B__typename%7D',
      '/mcp',
      '/.well-known/oauth-authorization-server',
      '/oauth/token',
      '/app/login',
      '/healthz',
      '/internal/ingest/scans',
      '/nowhere',
    ];
    for (const path of paths) {
      const response = await fetch(`${server.baseUrl}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options'), `${path} → ${response.status}`).toBe('nosniff');
    }
    for (const payload of [
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GET /healthz HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n',
    ]) {
      expect(parse(await raw(payload)).head).toMatch(/^X-Content-Type-Options: nosniff$/im);
    }
  });
});

describe("the OAuth server's answers", () => {
  it('carry X-Request-Id, the one their envelope names, or the sane one the request came with', async () => {
    const metadata = await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`);
    await metadata.arrayBuffer();
    expect(metadata.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const { host } = new URL(server.baseUrl);
    const refused = parse(await raw(`GET /oauth/token%FF HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    expect(refused.status).toBe(400);
    expect(refused.head).toContain(`X-Request-Id: ${refused.body.error.requestId}`);
    const token = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'lb-0123456789' },
      body: 'grant_type=nonsense',
    });
    await token.arrayBuffer();
    expect(token.headers.get('x-request-id')).toBe('lb-0123456789');
  });
});

describe('a request that never completes', () => {
  const slow = useListeningApp({ REQUEST_TIMEOUT_SECONDS: '2' });

  /** Sends `head` (and nothing more); resolves with what came back once the server closed the connection. */
  function stall(head: (host: string) => string): Promise<string> {
    const { hostname, port } = new URL(slow.baseUrl);
    return new Promise((resolve, reject) => {
      let answer = '';
      const socket = connect(Number(port), hostname, () => socket.write(head(`${hostname}:${port}`)));
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
      // A bound for a loaded machine, far below the default 30 s: only REQUEST_TIMEOUT_SECONDS answers in time.
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer: ${answer}`));
      }, 20_000).unref();
    });
  }

  const expectTimeoutAnswer = (answer: ReturnType<typeof parse>) => {
    expect(answer.status).toBe(408);
    expect(answer.head).toMatch(/^Connection: close$/im);
    expect(answer.body.error).toEqual({
      code: 'request_timeout',
      message: 'The request was not received in time.',
      requestId: expect.stringMatching(/^req_/),
    });
    expect(answer.head).toContain(`X-Request-Id: ${answer.body.error.requestId}`);
  };

  // Doors that read their body: GraphQL (Yoga), a form (sign-in), the OAuth server (node:http, Koa).
  it.each([
    ['/graphql', 'application/json'],
    ['/app/login', 'application/x-www-form-urlencoded'],
    ['/oauth/token', 'application/x-www-form-urlencoded'],
  ])(
    'a body to %s that stops short is answered 408 with the envelope ' +
      'once REQUEST_TIMEOUT_SECONDS pass, and the connection closed',
    async (path, contentType) => {
      expectTimeoutAnswer(
        parse(
          await stall(
            (host) =>
              `POST ${path} HTTP/1.1\r\nHost: ${host}\r\n` +
              `Content-Type: ${contentType}\r\nContent-Length: 100\r\n\r\n{"query":`,
          ),
        ),
      );
    },
    30_000,
  );

  it('headers that stop short are answered the same way', async () => {
    expectTimeoutAnswer(parse(await stall((host) => `GET /api/v1/clients HTTP/1.1\r\nHost: ${host}\r\nAccept: appl`)));
  }, 30_000);
});
