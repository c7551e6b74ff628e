// The one way a request body is read: up to a byte limit, counted as the bytes arrive, chunked
// or not. Past the limit reading stops at once (nothing more is buffered), the answer is 413 in
// the error envelope, and the connection is closed so the rest of the body is never read.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/index.js';
import { utf8Text } from './text-input.js';

/** Byte limits of each door's bodies (documented in docs/limits.md). */
export const BODY_LIMITS = {
  /** Web-app forms and their JSON twins, OAuth endpoints (registration, token, consent). */
  form: 64 * 1024,
  /** A read query with variables fits in far less. */
  graphql: 1024 * 1024,
  mcp: 1024 * 1024,
} as const;

const tooLarge = (limit: number) =>
  new ApiError('payload_too_large', `Request bodies here are limited to ${limit} bytes.`, {
    headers: { Connection: 'close' },
  });

const declaredLength = (value: string | null | undefined) => (value && /^\d+$/.test(value) ? Number(value) : null);

/**
 * The body of a web-standard request as it arrives, chunk by chunk, refused with 413 past
 * `limit` bytes (counted as they come: nothing past the limit is read or kept).
 */
export async function* bodyChunks(request: Request, limit: number): AsyncGenerator<Uint8Array> {
  if ((declaredLength(request.headers.get('content-length')) ?? 0) > limit) throw tooLarge(limit);
  if (!request.body) return;
  const reader = request.body.getReader();
  let received = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return void (finished = true);
      received += value.byteLength;
      if (received > limit) throw tooLarge(limit);
      yield value;
    }
  } finally {
    // Past the limit, or a consumer that stopped early: the rest of the body is not read.
    if (!finished) void reader.cancel().catch(() => {});
  }
}

/**
 * `chunks` read as fast as they arrive, handed on as fast as the consumer takes them: a consumer
 * slower than the network (ingest validating a body as it comes) does not hold the body back, so
 * the request's clock (REQUEST_TIMEOUT_SECONDS, until the body has arrived) measures the network
 * alone. What is queued is bounded by the body's limit; a failure (413) is thrown at the next take.
 */
export async function* readAhead(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const queue: (Uint8Array | undefined)[] = [];
  let next = 0;
  let done = false;
  let failure: { error: unknown } | null = null;
  let wake = () => {};
  void (async () => {
    try {
      for await (const chunk of chunks) {
        queue.push(chunk);
        wake();
      }
    } catch (error) {
      failure = { error };
    } finally {
      done = true;
      wake();
    }
  })();
  for (;;) {
    if (failure) throw (failure as { error: unknown }).error;
    if (next < queue.length) {
      const chunk = queue[next]!;
      // Taken chunks are let go of at once: only what waits is held.
      queue[next++] = undefined;
      yield chunk;
    } else if (done) return;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
}

/** The body of a web-standard request, refused with 413 past `limit` bytes. */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of bodyChunks(request, limit)) {
    received += chunk.byteLength;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}

/** The body as text; bytes that are not UTF-8 are a 400 `invalid_body`, not U+FFFD. */
export const readBodyText = async (request: Request, limit: number) => utf8Text(await readBody(request, limit));

/** The same for node:http requests (the OAuth server's paths). */
export async function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if ((declaredLength(req.headers['content-length']) ?? 0) > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}

/**
 * After an answer that did not read the body: a small declared body is read and dropped by Node
 * to keep the connection; a chunked or large one closes the connection instead.
 */
export function closesAfterUnreadBody(request: Request): boolean {
  // Runs for every request: the cheap answers first (reading `body` builds a stream wrapper).
  if (request.method === 'GET' || request.method === 'HEAD' || request.bodyUsed) return false;
  const declared = declaredLength(request.headers.get('content-length'));
  if (declared !== null) return declared > BODY_LIMITS.form;
  return request.body !== null;
}

/**
 * The request with its body bounded, for code that reads bodies itself (Yoga, the MCP SDK): a
 * declared length is checked here and enforced by Node's parser, so such a request passes as it
 * is (no copy on the hot path); a chunked body is read here within the limit.
 */
export async function bounded(request: Request, limit: number): Promise<Request> {
  const declared = declaredLength(request.headers.get('content-length'));
  if (declared !== null) {
    if (declared > limit) throw tooLarge(limit);
    return request;
  }
  if (!request.body) return request;
  const body = await readBody(request, limit);
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: body.byteLength ? (body as Uint8Array<ArrayBuffer>) : null,
    signal: request.signal,
  });
}
