// How a body leaves (a JSON answer, a static asset): a strong ETag for conditional requests and
// gzip/brotli per Accept-Encoding above a size threshold. Negotiation and validators are pure functions.
import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { Response } from './responses.js';
import { singleFlight } from './single-flight.js';
import { qualityValues } from './negotiation.js';
import { codeDigest } from './code-digest.js';

/** Below this, compressing costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export type ContentCoding = 'br' | 'gzip';

/** A JSON body: small ASCII text as it is, anything else as UTF-8 bytes. */
export type JsonBody = string | Uint8Array<ArrayBuffer>;

/**
 * Above this many characters an ASCII body is written as bytes too: node:http joins a string body
 * to the headers, and a stream copies a string of more than 16 KiB (its stack buffer) into a new
 * allocation on every write — per request again for a cached body (docs/decisions/response-encoding.md).
 */
export const STRING_BODY_MAX_CHARS = 16 * 1024;

/**
 * A JSON body, encoded at most once. Hashing, compressing and writing a string each encode it
 * again, at ~5 ns a character once one character is outside Latin-1 (an em dash in a title), so
 * such a body becomes bytes here (`Buffer.from`: a small one comes from Node's pool). A small
 * ASCII body stays a string: node:http writes it with the headers as one buffer, cheaper than bytes.
 */
export function jsonBody(value: unknown): JsonBody {
  const text = JSON.stringify(value);
  return text.length <= STRING_BODY_MAX_CHARS && Buffer.byteLength(text) === text.length
    ? text
    : (Buffer.from(text) as Buffer<ArrayBuffer>);
}

const byteLength = (body: JsonBody) => (typeof body === 'string' ? body.length : body.byteLength);

/** A body ready to be sent again: its ETag and each content coding made of it so far. */
export interface FinishedBody {
  readonly body: JsonBody;
  readonly etag: string;
  /**
   * Filled as clients ask, so a kept body is compressed once per coding instead of at every poll
   * (compressing at every poll made a cached body many times slower to serve than its identity).
   */
  readonly encodings: Partial<Record<ContentCoding, Uint8Array<ArrayBuffer>>>;
  /** Kept to be sent again (in a cache, or for the process's life), so each coding is made once for many answers. */
  readonly kept: boolean;
}

const newFinishedBody = (body: JsonBody, kept: boolean, etag = strongEtag(body)): FinishedBody => ({
  body,
  etag,
  encodings: {},
  kept,
});

/** The body of one answer; `etag` when its inputs name it already (`inputsEtag`), otherwise a hash of the body. */
export const finishedBody = (body: JsonBody, etag?: string): FinishedBody => newFinishedBody(body, false, etag);

/** A body to keep: bytes in a buffer of their own, as a pooled slice would keep its whole 8 KB pool alive. */
export const keptBody = (body: JsonBody, etag?: string): FinishedBody =>
  newFinishedBody(typeof body === 'string' ? body : new Uint8Array(body), true, etag);

/** What a finished body takes in memory: the body (a string is held as UTF-16), its ETag and its encodings. */
export function heldBytes({ body, etag, encodings }: FinishedBody): number {
  let bytes = (typeof body === 'string' ? body.length * 2 : body.byteLength) + etag.length * 2;
  for (const encoded of Object.values(encodings)) bytes += encoded.byteLength;
  return bytes;
}

/** A strong validator of the identity body: the same bytes always give the same tag. */
export function strongEtag(body: JsonBody): string {
  // The one-shot hash: no Hash object per response (docs/decisions/http-response-costs.md).
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * A strong validator named by everything an answer's bytes are made of (`inputs`: the route, its
 * arguments, the data version, the day) and the code that renders them: known before the answer
 * is computed, so a matching If-None-Match is answered 304 without computing it, and a body of
 * hundreds of kilobytes is never hashed (docs/decisions/http-response-costs.md).
 */
export const inputsEtag = (inputs: string) => `"${hash('sha1', `${codeDigest()}|${inputs}`, 'base64url')}"`;

/**
 * If-None-Match (RFC 9110 §13.1.2): `*` or a list of tags, compared weakly; a tag matches
 * whatever content coding it was sent with, since every coding carries the same content, as long
 * as this request accepts that coding (a shared cache sends the tags of every variant it holds).
 * Gives the tag the client holds as that answer's 200 named it (`"…-br"` for the brotli body),
 * which its 304 carries (RFC 9110 §15.4.5), or null when none matches.
 */
export function heldTag(request: Request, etag: string): string | null {
  const header = request.headers.get('if-none-match');
  if (!header) return null;
  if (header.trim() === '*') return etag;
  const accepted = qualityValues(request.headers.get('accept-encoding'));
  const acceptable = (coding: string | undefined) => !coding || (accepted.get(coding) ?? accepted.get('*') ?? 0) > 0;
  for (const listed of header.split(',')) {
    const tag = listed.trim().replace(/^W\//, '');
    const [, opaque, coding] = /^(".*?)(?:-(br|gzip))?"$/.exec(tag) ?? [];
    if (`${opaque}"` === etag && acceptable(coding)) return tag;
  }
  return null;
}

/** 304 Not Modified for `etag`, with `headers` (its caching) and Vary as the full answer has it. */
export const notModified = (etag: string, headers: Record<string, string>) =>
  new Response(null, { status: 304, headers: { ...headers, ETag: etag, Vary: 'Accept-Encoding' } });

/** The preferred coding the client accepts (q > 0): brotli before gzip at equal weight. */
export function negotiateEncoding(acceptEncoding: string | null): ContentCoding | null {
  const weights = qualityValues(acceptEncoding);
  const weightOf = (coding: ContentCoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip'] as const)
    .filter((coding) => weightOf(coding) > 0)
    .sort((a, b) => weightOf(b) - weightOf(a))[0];
  return best ?? null;
}

/**
 * An answer's own body up to this size is brotli-compressed at quality 1, since that answer alone
 * pays for it: quality 4 costs a small body a large share of its whole answer for a few hundred
 * bytes. Kept bodies and larger ones get quality 4: most of brotli's gain at a fraction of its top
 * setting's CPU (docs/decisions/response-encoding.md).
 */
export const BROTLI_FAST_MAX_BYTES = 16 * 1024;

const brotliQuality = ({ body, kept }: FinishedBody) => (!kept && byteLength(body) <= BROTLI_FAST_MAX_BYTES ? 1 : 4);

// The size hint lets the encoder size its buffers to the body, which lowers the peak resident set.
const brotliOptions = (finished: FinishedBody) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: brotliQuality(finished),
    [constants.BROTLI_PARAM_SIZE_HINT]: byteLength(finished.body),
  },
});
const GZIP_OPTIONS = { level: 6 };

/**
 * Up to this size a body is compressed on the event loop: handing a small body to libuv's pool
 * costs about three times the CPU of compressing it in line, while a larger body is worth not
 * holding the loop for (docs/decisions/response-encoding.md).
 */
export const COMPRESS_IN_LINE_MAX_BYTES = 64 * 1024;

const compressors: Record<
  ContentCoding,
  { inLine(finished: FinishedBody): Buffer; inPool(finished: FinishedBody): Promise<Buffer> }
> = {
  br: {
    inLine: (finished) => brotliCompressSync(finished.body, brotliOptions(finished)),
    inPool: (finished) => promisify(brotliCompress)(finished.body, brotliOptions(finished)),
  },
  gzip: {
    inLine: ({ body }) => gzipSync(body, GZIP_OPTIONS),
    inPool: ({ body }) => promisify(gzip)(body, GZIP_OPTIONS),
  },
};

const compress = (coding: ContentCoding, finished: FinishedBody) =>
  byteLength(finished.body) <= COMPRESS_IN_LINE_MAX_BYTES
    ? compressors[coding].inLine(finished)
    : compressors[coding].inPool(finished);

/** A Vary that adds Accept-Encoding to what the answer varies on already (`Accept` for a page that has a JSON twin). */
export const varyOnEncoding = (vary?: string) => (vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');

/**
 * A 200 response with its ETag (`headers` name its type), compressed when the client accepts it and it pays. A coding
 * not made before is added to `finished.encodings`, and `onEncoded` is told (to count it).
 */
export async function representation(
  request: Request,
  finished: FinishedBody,
  headers: Record<string, string>,
  onEncoded?: () => void,
): Promise<Response> {
  const { body, etag, encodings } = finished;
  const coding =
    byteLength(body) >= COMPRESSION_THRESHOLD_BYTES ? negotiateEncoding(request.headers.get('accept-encoding')) : null;
  const common = { ...headers, ETag: etag, Vary: varyOnEncoding(headers.Vary) };
  if (!coding) return new Response(body, { headers: common });
  const encoded = encodings[coding] ?? (await encodingOf(finished, coding, onEncoded));
  return new Response(encoded, {
    headers: { ...common, 'Content-Encoding': coding, ETag: etag.replace(/"$/, `-${coding}"`) },
  });
}

/**
 * Codings being made, per coding by the body's `encodings` (which the cache's copies share):
 * requests that ask for one together wait for the same compression instead of each compressing the
 * body at once in libuv's pool with an encoder state of its own.
 */
const compressing = {
  br: singleFlight<FinishedBody['encodings'], Uint8Array<ArrayBuffer>>(),
  gzip: singleFlight<FinishedBody['encodings'], Uint8Array<ArrayBuffer>>(),
};

/** A coding of a body, made once and kept with it. */
function encodingOf(
  finished: FinishedBody,
  coding: ContentCoding,
  onEncoded?: () => void,
): Promise<Uint8Array<ArrayBuffer>> {
  const { encodings } = finished;
  return compressing[coding].run(encodings, async () => {
    // Bytes of its own (zlib's result may be a slice of a larger buffer), since it is kept.
    const encoded = new Uint8Array(await compress(coding, finished));
    encodings[coding] = encoded;
    onEncoded?.();
    return encoded;
  });
}
