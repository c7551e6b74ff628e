import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import {
  BROTLI_FAST_MAX_BYTES,
  COMPRESS_IN_LINE_MAX_BYTES,
  finishedBody,
  heldBytes,
  heldTag,
  jsonBody,
  representation,
  keptBody,
  negotiateEncoding,
  STRING_BODY_MAX_CHARS,
  strongEtag,
} from '../../src/http/representation.js';

// zlib as it is, with the calls of each compressor counted.
const calls = vi.hoisted(() => ({ brotliCompress: 0, brotliCompressSync: 0, gzip: 0, gzipSync: 0 }));
vi.mock('node:zlib', async (importOriginal) =>
  (await import('../support/counted-zlib.js')).countedZlib(await importOriginal(), calls),
);

describe('strong ETags', () => {
  it('are the same for the same body and differ for another', () => {
    expect(strongEtag(jsonBody({ a: 1 }))).toBe(strongEtag(jsonBody({ a: 1 })));
    expect(strongEtag(jsonBody({ a: 1 }))).not.toBe(strongEtag(jsonBody({ a: 2 })));
    expect(strongEtag(jsonBody('x'))).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });
});

describe('jsonBody', () => {
  it('is the JSON text, as it is when small and ASCII and as UTF-8 bytes otherwise, whatever its characters', () => {
    for (const value of [
      { title: 'Pine — Pricing', emoji: '🥖', quote: '"\\' },
      { latin1: 'Café' },
      'plain',
      [1, null, true],
      { lone: '\ud800' },
    ]) {
      const body = jsonBody(value);
      expect(typeof body === 'string' ? body : Buffer.from(body).toString('utf8')).toBe(JSON.stringify(value));
      expect(typeof body === 'string').toBe(/^[\x00-\x7f]*$/.test(JSON.stringify(value)));
    }
  });

  it('is bytes, whatever its characters, above the size node:http would copy a string at on every write', () => {
    const large = {
      items: Array.from({ length: 400 }, (_, index) => ({ id: `item_${index}`, name: 'plain ascii name' })),
    };
    expect(JSON.stringify(large).length).toBeGreaterThan(STRING_BODY_MAX_CHARS);
    const body = jsonBody(large);
    expect(body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(body as Uint8Array).toString('utf8')).toBe(JSON.stringify(large));
    const atTheLimit = 'a'.repeat(STRING_BODY_MAX_CHARS - 2);
    expect(jsonBody(atTheLimit)).toBe(JSON.stringify(atTheLimit));
    expect(jsonBody(`${atTheLimit}a`)).toBeInstanceOf(Uint8Array);
  });

  it("keeps a small byte body in a buffer of its own, not a slice that pins Node's shared pool", () => {
    const body = jsonBody({ t: 'é' }) as Uint8Array<ArrayBuffer>;
    expect(body.buffer.byteLength).toBeGreaterThan(body.byteLength);
    const kept = keptBody(body).body as Uint8Array<ArrayBuffer>;
    expect(kept.buffer.byteLength).toBe(kept.byteLength);
    expect(Buffer.from(kept)).toEqual(Buffer.from(body));
  });

  it('counts what a finished body holds: the body (a string as UTF-16), its ETag and each encoding', () => {
    const bytes = keptBody(jsonBody({ t: 'é' }));
    expect(heldBytes(bytes)).toBe((bytes.body as Uint8Array).byteLength + bytes.etag.length * 2);
    const text = finishedBody(jsonBody({ t: 'a' }));
    expect(heldBytes(text)).toBe(2 * JSON.stringify({ t: 'a' }).length + text.etag.length * 2);
    text.encodings.br = new Uint8Array(10);
    text.encodings.gzip = new Uint8Array(7);
    expect(heldBytes(text)).toBe(2 * JSON.stringify({ t: 'a' }).length + text.etag.length * 2 + 17);
  });

  it('gives the same ETag for the same content either way (tags sent before bodies became bytes stay valid)', () => {
    expect(strongEtag(jsonBody({ t: 'é — 🥖' }))).toBe(strongEtag(JSON.stringify({ t: 'é — 🥖' })));
    expect(strongEtag(jsonBody({ t: 'ascii' }))).toBe(
      strongEtag(Buffer.from(JSON.stringify({ t: 'ascii' })) as Buffer<ArrayBuffer>),
    );
  });
});

describe('If-None-Match', () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', '"abc"'],
    ['W/"abc"', '"abc"'],
    ['"abc-br"', '"abc-br"'],
    ['"abc-gzip"', '"abc-gzip"'],
    ['"x", W/"abc-br"', '"abc-br"'],
    ['*', '"abc"'],
    ['"abd"', null],
    ['abc', null],
    ['', null],
  ])('%s → the held tag %s', (header, held) => {
    const request = new Request('http://x/', { headers: { 'if-none-match': header, 'accept-encoding': 'gzip, br' } });
    expect(heldTag(request, etag)).toBe(held);
  });
  it('is absent → no match', () => expect(heldTag(new Request('http://x/'), etag)).toBeNull());
  it("skips a held variant in a coding this request does not accept (a shared cache's other copies)", () => {
    const asking = (acceptEncoding: string) =>
      new Request('http://x/', { headers: { 'if-none-match': '"abc-br", "abc"', 'accept-encoding': acceptEncoding } });
    expect(heldTag(asking('identity'), etag)).toBe('"abc"');
    expect(heldTag(asking('gzip'), etag)).toBe('"abc"');
    expect(heldTag(asking('br'), etag)).toBe('"abc-br"');
    const onlyBrotli = new Request('http://x/', {
      headers: { 'if-none-match': '"abc-br"', 'accept-encoding': 'gzip' },
    });
    expect(heldTag(onlyBrotli, etag)).toBeNull();
  });
});

describe('Accept-Encoding negotiation', () => {
  it.each([
    [null, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['GZIP', 'gzip'],
  ])('%s → %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });
});

describe('representation', () => {
  const request = (acceptEncoding: string) =>
    new Request('http://test.local/x', { headers: { 'accept-encoding': acceptEncoding } });
  const large = () =>
    finishedBody(jsonBody({ rows: Array.from({ length: 200 }, (_, index) => ({ index, name: 'row' })) }));

  it('makes a coding once, keeps it with the body and says so; later requests get the kept bytes', async () => {
    const finished = large();
    let told = 0;
    const first = await representation(request('br'), finished, {}, () => told++);
    const firstBytes = new Uint8Array(await first.arrayBuffer());
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(told).toBe(1);
    expect(finished.encodings.br).toEqual(firstBytes);
    // A kept coding is what is sent, as it is: a marker put in its place comes back.
    finished.encodings.br = new Uint8Array([1, 2, 3]);
    const again = await representation(request('br'), finished, {}, () => told++);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(told).toBe(1);
    await representation(request('gzip'), finished, {}, () => told++);
    expect(told).toBe(2);
    expect(Object.keys(finished.encodings).sort()).toEqual(['br', 'gzip']);
  });

  it('keeps nothing for identity or a body under the threshold', async () => {
    const finished = large();
    await representation(request('identity'), finished, {});
    const small = finishedBody(jsonBody({ a: 1 }));
    await representation(request('br'), small, {});
    expect(finished.encodings).toEqual({});
    expect(small.encodings).toEqual({});
  });
});

describe('compression', () => {
  const request = (acceptEncoding: string) =>
    new Request('http://test.local/x', { headers: { 'accept-encoding': acceptEncoding } });
  // `{"text":""}` is 11 bytes.
  const ofSize = (bytes: number) => finishedBody(jsonBody({ text: 'x'.repeat(bytes - 11) }));

  it("compresses a body up to 64 KiB in line and a larger one in libuv's pool, both decoding to the body", async () => {
    for (const [finished, inLine] of [
      [ofSize(COMPRESS_IN_LINE_MAX_BYTES), true],
      [ofSize(COMPRESS_IN_LINE_MAX_BYTES + 1), false],
    ] as const) {
      const before = { ...calls };
      const text = typeof finished.body === 'string' ? finished.body : Buffer.from(finished.body).toString();
      const br = Buffer.from(await (await representation(request('br'), finished, {})).arrayBuffer());
      const gz = Buffer.from(await (await representation(request('gzip'), finished, {})).arrayBuffer());
      expect(brotliDecompressSync(br).toString()).toBe(text);
      expect(gunzipSync(gz).toString()).toBe(text);
      expect({
        brotliCompressSync: calls.brotliCompressSync - before.brotliCompressSync,
        brotliCompress: calls.brotliCompress - before.brotliCompress,
        gzipSync: calls.gzipSync - before.gzipSync,
        gzip: calls.gzip - before.gzip,
      }).toEqual(
        inLine
          ? { brotliCompressSync: 1, brotliCompress: 0, gzipSync: 1, gzip: 0 }
          : { brotliCompressSync: 0, brotliCompress: 1, gzipSync: 0, gzip: 1 },
      );
    }
  });

  it(
    "uses brotli quality 1 for an answer's own body up to 16 KiB " +
      '(it pays alone for it), and quality 4 for a larger or kept one',
    async () => {
      const report = (index: number) => ({
        id: `rep_${(index * 7919).toString(36)}`,
        name: `Report ${index} — ${(index * 104729).toString(36)}`,
        createdAt: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
      });
      const list = (count: number) => jsonBody({ data: Array.from({ length: count }, (_, index) => report(index)) });
      expect(Buffer.from(list(30)).byteLength).toBeLessThanOrEqual(BROTLI_FAST_MAX_BYTES);
      expect(Buffer.from(list(300)).byteLength).toBeGreaterThan(BROTLI_FAST_MAX_BYTES);
      for (const [finished, quality] of [
        [finishedBody(list(30)), 1],
        [keptBody(list(30)), 4],
        [finishedBody(list(300)), 4],
      ] as const) {
        const bytes = Buffer.from(finished.body);
        const at = (level: number) =>
          brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: level, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
          });
        const br = Buffer.from(await (await representation(request('br'), finished, {})).arrayBuffer());
        expect(br.equals(at(quality))).toBe(true);
        expect(br.equals(at(5 - quality))).toBe(false);
      }
    },
  );

  it('makes a coding once for requests that ask for it together, and again after a failed try', async () => {
    const finished = ofSize(COMPRESS_IN_LINE_MAX_BYTES * 2);
    const before = calls.brotliCompress;
    let told = 0;
    const bodies = await Promise.all(
      Array.from({ length: 8 }, async () =>
        Buffer.from(await (await representation(request('br'), finished, {}, () => told++)).arrayBuffer()),
      ),
    );
    expect(calls.brotliCompress - before).toBe(1);
    expect(told).toBe(1);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    // Made, it is kept: a later request compresses nothing.
    expect(finished.encodings.br).toEqual(new Uint8Array(bodies[0]!));
    await representation(request('br'), finished, {});
    expect(calls.brotliCompress - before).toBe(1);

    // A compression that fails is not kept: the next request tries again.
    const failing = ofSize(COMPRESS_IN_LINE_MAX_BYTES * 2);
    const brotliCompress = vi
      .spyOn(await import('node:zlib'), 'brotliCompress')
      .mockImplementationOnce(((_body: unknown, _options: unknown, callback: (error: Error) => void) =>
        callback(new Error('encoder failed'))) as never);
    await expect(representation(request('br'), failing, {})).rejects.toThrow('encoder failed');
    brotliCompress.mockRestore();
    expect(failing.encodings.br).toBeUndefined();
    const retried = Buffer.from(await (await representation(request('br'), failing, {})).arrayBuffer());
    expect(brotliDecompressSync(retried).toString()).toBe(Buffer.from(failing.body as Uint8Array).toString());
  });
});
