// The guarded fetch against real loopback servers: redirects are not followed, answers past the
// cap and peers past the deadline fail, private targets are refused before any connection.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFetch, OutboundError } from '../../src/http/outbound-fetch.js';
import { listenOnLoopback } from '../support/loopback.js';

let server: Awaited<ReturnType<typeof listenOnLoopback>>;
let hits = 0;

beforeAll(async () => {
  server = await listenOnLoopback(
    http.createServer((req, res) => {
      hits++;
      if (req.url === '/redirect')
        return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      if (req.url === '/huge') return void res.end(Buffer.alloc(2 * 1024 * 1024, 'x'));
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 3_000);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method }));
    }),
  );
});
afterAll(() => server.close());

const open = createOutboundFetch({
  policy: { allowHttp: true, allowPrivate: true },
  timeoutMs: 500,
  maxBytes: 64 * 1024,
});

describe('the guarded fetch', () => {
  it('returns the answer as a web Response', async () => {
    const response = await open(`${server.baseUrl}/ok`, {
      method: 'POST',
      body: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ method: 'POST' });
  });

  it('does not follow redirects', async () => {
    const response = await open(`${server.baseUrl}/redirect`);
    expect(response.status).toBe(302);
  });

  it('fails past the size cap and past the deadline', async () => {
    await expect(open(`${server.baseUrl}/huge`)).rejects.toBeInstanceOf(OutboundError);
    const started = performance.now();
    await expect(open(`${server.baseUrl}/slow`)).rejects.toThrow(/did not answer within 500 ms/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses private targets before connecting when they are not allowed', async () => {
    const strict = createOutboundFetch({
      policy: { allowHttp: true, allowPrivate: false },
      timeoutMs: 500,
      maxBytes: 1024,
    });
    const before = hits;
    await expect(strict(`${server.baseUrl}/ok`)).rejects.toThrow(/loopback/);
    await expect(strict(server.baseUrl.replace('127.0.0.1', 'localhost'))).rejects.toThrow(/loopback/);
    expect(hits).toBe(before);
  });
});
