// The pages that are the same for every request (GraphiQL's, with the schema inlined, and the
// home page): sent brotli- or gzip-compressed as the client accepts, each coding made once for
// the process, with Vary naming both Accept and Accept-Encoding, and 304 for a page held already.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CompressorCalls } from '../support/counted-zlib.js';
import { createTestApp, type TestApp } from '../support/app.js';

const calls: CompressorCalls = vi.hoisted(() => ({ brotliCompress: 0, brotliCompressSync: 0, gzip: 0, gzipSync: 0 }));
vi.mock('node:zlib', async (importOriginal) =>
  (await import('../support/counted-zlib.js')).countedZlib(await importOriginal(), calls),
);

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const open = (path: string, headers: Record<string, string>) =>
  t.get(path, undefined, { headers: { accept: BROWSER, ...headers } });
const compressions = () => calls.brotliCompress + calls.brotliCompressSync + calls.gzip + calls.gzipSync;

describe.each([
  { path: '/graphql', title: 'Signalboard GraphQL', minBytes: 200_000 },
  { path: '/', title: 'Home · Signalboard', minBytes: 4_000 },
])('$path in a browser', ({ path, title, minBytes }) => {
  it('is compressed as the client accepts, the same bytes in every coding, each coding made once', async () => {
    const identity = await open(path, {});
    expect(identity.status).toBe(200);
    expect(identity.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(identity.headers.get('content-encoding')).toBeNull();
    const bytes = Buffer.from(await identity.arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(minBytes);
    expect(bytes.toString()).toContain(`<title>${title}</title>`);

    const before = compressions();
    const codings = [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const;
    for (const [accepted, coding, decompress] of codings) {
      for (let again = 0; again < 3; again++) {
        const response = await open(path, { 'accept-encoding': accepted });
        expect(response.headers.get('content-encoding'), accepted).toBe(coding);
        expect(response.headers.get('vary'), accepted).toBe('Accept, Accept-Encoding');
        expect(response.headers.get('content-security-policy'), accepted).toContain("default-src 'none'");
        const body = Buffer.from(await response.arrayBuffer());
        expect(body.byteLength, accepted).toBeLessThan(bytes.byteLength / 2);
        expect(decompress(body).equals(bytes), accepted).toBe(true);
      }
    }
    // One brotli and one gzip coding of the page, whatever the number of requests.
    expect(compressions() - before).toBeLessThanOrEqual(2);
  });

  it('answers 304 to a browser that holds the page', async () => {
    const etag = (await open(path, {})).headers.get('etag')!;
    const again = await open(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('vary')).toBe('Accept, Accept-Encoding');
  });
});

describe('/graphql for a client that does not prefer HTML', () => {
  it('is the GraphQL endpoint, not GraphiQL', async () => {
    for (const accept of ['application/json', 'text/html;q=0, application/json', '*/*']) {
      const response = await t.get('/graphql?query=%7B__typename%7D', undefined, { headers: { accept } });
      expect(response.headers.get('content-type'), accept).toMatch(/^application\/(graphql-response\+)?json/);
    }
  });
});
