// The node:http server around the app. Requests that Node's HTTP parser rejects never reach
// the app (oversized headers, malformed request lines, a stalled request); they still get the
// error envelope with a request id, as raw HTTP on the socket, and the connection closes.
// Responses whose client stops reading are cut (stall-watch.ts).
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from '../app.js';
import { ApiError, type ErrorCode } from '../errors/index.js';
import { errorBody, JSON_CONTENT_TYPE, newRequestId, NO_SNIFF, requestIdOfNode } from '../http/responses.js';
import { isValidHostHeader } from '../http/public-origin.js';
import { isOriginForm } from '../http/request-path.js';
import { watchStalls } from '../http/stall-watch.js';
import { createRefusalPause } from '../http/refusal-pause.js';

const PARSER_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'request_header_fields_too_large',
    message: 'The request headers are too large (16 KiB at most).',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', message: 'The request was not received in time.' },
};
const MALFORMED = { code: 'bad_request', message: 'The request is not valid HTTP.' } as const;

/** An error as raw HTTP/1.1 on a socket no response object holds, in the API's envelope; the connection closes. */
function rawErrorResponse(error: ApiError, requestId: string): string {
  const body = errorBody(error, requestId);
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`,
    `Content-Type: ${JSON_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    `${NO_SNIFF.name}: ${NO_SNIFF.value}`,
    ...Object.entries(error.headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** The raw HTTP/1.1 response for an error the parser found. */
export function parserErrorResponse(parserCode: string | undefined, requestId: string): string {
  const { code, message } = PARSER_ERRORS[parserCode ?? ''] ?? MALFORMED;
  return rawErrorResponse(new ApiError(code, message), requestId);
}

/** An error in the envelope on a response no door answers (a refused target, an unmet expectation); it closes. */
function refuse(res: ServerResponse, error: ApiError): void {
  const requestId = newRequestId();
  const body = errorBody(error, requestId);
  res
    .writeHead(error.status, {
      'Content-Type': JSON_CONTENT_TYPE,
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      [NO_SNIFF.name]: NO_SNIFF.value,
      ...error.headers,
      Connection: 'close',
    })
    .end(body);
}

// After an early answer the rest of a body is read and dropped for a moment (so the client can
// read the answer instead of a reset), never kept, and the connection is cut past these bounds.
const DISCARD_MAX_BYTES = 1024 * 1024;
const DISCARD_MAX_MS = 2_000;
const CONNECTIONS_CHECK_MS = 2_000;

function discardRestOfBody(req: IncomingMessage) {
  // A door that stopped reading may have destroyed the request already: its 'close' has passed and
  // its socket is gone, so there is nothing left to drain (and no event would clear the timer).
  if (req.destroyed || !req.socket) return;
  let discarded = 0;
  const cut = () => {
    clearTimeout(timer);
    req.socket?.destroy();
  };
  const timer = setTimeout(cut, DISCARD_MAX_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/**
 * The fields a request may carry once (RFC 9110 §7.2, §11.6.2, §10.1.3) that Node keeps the first of, so a second
 * would go unread here while a proxy before us may have read it: which Host, which credential or which page sent
 * the request (the settings' origin check reads Referer) is ambiguous, and it is refused.
 */
const SINGLETON_FIELDS: Record<string, string> = { host: 'Host', authorization: 'Authorization', referer: 'Referer' };

/** The singleton fields (by lowercase name) a request repeats. */
function repeatedSingletons(raw: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    if (!(name in SINGLETON_FIELDS)) continue;
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  return repeated;
}

/**
 * Brings the request line to the form the app reads (RFC 9112 §3.2): an absolute-form target
 * (`GET http://host/path`) is its path, and its authority stands for Host; an HTTP/1.0 request,
 * which needs no Host (a load balancer's health check), is addressed to localhost. Then says why
 * the request cannot be served, or null.
 */
function targetRefusal(req: IncomingMessage): string | null {
  const repeated = repeatedSingletons(req.rawHeaders);
  if (req.url && /^https?:\/\//i.test(req.url) && URL.canParse(req.url)) {
    const target = new URL(req.url);
    req.headers.host = target.host;
    req.url = `${target.pathname}${target.search}`;
  } else if (repeated.has('host')) return 'The request carries more than one Host header.';
  for (const name of repeated)
    if (name !== 'host') return `The request carries more than one ${SINGLETON_FIELDS[name]} header.`;
  if (req.headers.host === undefined && req.httpVersion === '1.0') req.headers.host = 'localhost';
  if (!isValidHostHeader(req.headers.host)) return 'The Host header is missing or malformed.';
  return isOriginForm(req.url) ? null : 'The request target must be a path beginning with /.';
}

/**
 * The paths the app serves on node:http itself (the OAuth server, a Koa app). Its answers carry
 * nosniff and the request's id as every answer does: the id is taken once here and handed on as the
 * request's own header, so the id any envelope of its names is this one.
 */
function serveNodeDoor(app: App, req: IncomingMessage, res: ServerResponse): void {
  const requestId = requestIdOfNode(req);
  req.headers['x-request-id'] = requestId;
  res.setHeader('X-Request-Id', requestId);
  res.setHeader(NO_SNIFF.name, NO_SNIFF.value);
  app.node.handle(req, res).catch((error: unknown) => {
    const unexpected = new ApiError('internal_error', 'An unexpected error occurred.');
    if (!res.headersSent)
      res.writeHead(unexpected.status, { 'Content-Type': JSON_CONTENT_TYPE }).end(errorBody(unexpected, requestId));
    else res.destroy(error as Error);
  });
}

export function createNodeServer(app: App): Server {
  // The node adapter passes the IncomingMessage as `req`: its socket gives the client address.
  const adapter = createServerAdapter((request: Request, context) => {
    const { req, res } = context as { req?: IncomingMessage; res?: ServerResponse };
    // 'close' comes once per response: after its last byte was handed over, or when the client went away.
    const ended = res && new Promise<void>((resolve) => res.once('close', () => resolve()));
    const answer = app.fetch(request, {
      remoteAddress: req?.socket.remoteAddress,
      abort: (error) => res?.destroy(error),
      ended,
      attribute: (workspaceId) => res && stalls.attribute(res, workspaceId),
    });
    // The refusal pause reads Retry-After off Node's response once it is sent; headers the adapter
    // writes in one go are not kept there, so a 429's is set on it beforehand.
    return answer.then((response) => {
      const retryAfter = response.status === 429 && response.headers.get('retry-after');
      if (retryAfter) res?.setHeader('Retry-After', retryAfter);
      return response;
    });
  });
  // Node enforces requestTimeout only when it checks its connections (every 30 s by default), so a
  // stalled request was answered 408 after 30-60 s; checked every 2 s it is the timeout plus at
  // most 2 s (30-32 s by default), as documented. A request without Host is refused below with
  // the envelope (Node's own check answers an empty 400).
  const options = { connectionsCheckingInterval: CONNECTIONS_CHECK_MS, requireHostHeader: false };
  const server = createServer(options, (req, res) => {
    // Every URL is built from Host and the path; a missing, repeated or malformed Host (`a b`, `[zz]`,
    // `a/b`) and a target that is no path (`*`, `http://[`: the adapter's URL would throw) are refused first.
    const refusal = targetRefusal(req);
    if (refusal) return refuse(res, new ApiError('bad_request', refusal));
    res.once('finish', () => {
      if (!req.complete) discardRestOfBody(req);
      else refusals.afterResponse(res, req.socket);
    });
    // The app's answers carry nosniff from its request cycle, in the headers written at once.
    if (!app.node.handles((req.url ?? '/').split('?')[0]!)) return void adapter(req, res);
    serveNodeDoor(app, req, res);
  });
  const refusals = createRefusalPause(app.refusedConnectionPauseMs);
  const stalls = watchStalls(server, app.responseLimits, () => app.metrics.responseCut());
  server.keepAliveTimeout = 65_000;
  // The headers share the whole request's bound. Node swaps the two timeouts when headersTimeout
  // is the larger: at 66 s (the old keep-alive advice, moot since Node 18 checks only requests in
  // progress) a stalled body was answered after 66-68 s, not the documented 30-32 s.
  server.headersTimeout = app.requestTimeoutMs;
  server.requestTimeout = app.requestTimeoutMs;
  // An expectation other than 100-continue (RFC 9110 §10.1.1) is one no door meets: 417 in the
  // envelope before anything runs, where Node answers an empty 417 on its own.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
    refuse(
      res,
      new ApiError(
        'expectation_failed',
        'This server meets no expectation but 100-continue; send the request without that Expect header.',
      ),
    ),
  );
  // CONNECT asks for a tunnel, which this server never opens (Node drops the socket without a word).
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const error = new ApiError('method_not_allowed', 'CONNECT is not served here.', { headers: { Allow: 'GET' } });
    socket.end(rawErrorResponse(error, newRequestId()));
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    socket.end(parserErrorResponse(error.code, newRequestId()));
  });
  return server;
}
