import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ApiError } from '../errors/index.js';
// Responses are @whatwg-node/fetch's: the node:http adapter writes their string or byte body in
// one write, where a native Response's body would be streamed (docs/decisions/http-response-costs.md).
import { Response } from '@whatwg-node/fetch';

export { Response };

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * On every answer of every door (the app's, from its request cycle; the OAuth server's and the
 * HTTP parser's, from doors/node-server.ts): a browser never guesses a type other than the
 * declared one, so a JSON or CSV answer holding customer text cannot be run as HTML or script.
 */
export const NO_SNIFF = { name: 'X-Content-Type-Options', value: 'nosniff' } as const;

// Request ids are 128 random bits in hex, cut from a pooled block of random bytes rather than a
// UUID made and stripped of its dashes per request (docs/decisions/http-response-costs.md).
const ID_BYTES = 16;
const POOL_IDS = 256;
let idPool = randomBytes(ID_BYTES * POOL_IDS);
let idOffset = 0;

export function newRequestId(): string {
  if (idOffset === idPool.length) {
    idPool = randomBytes(ID_BYTES * POOL_IDS);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return `req_${idPool.toString('hex', idOffset - ID_BYTES, idOffset)}`;
}

/**
 * An incoming X-Request-Id (a load balancer's) when it is sane — a short token, nothing that could
 * forge a log line — otherwise a new id.
 */
const keptOrNewRequestId = (incoming: unknown): string =>
  typeof incoming === 'string' && /^[A-Za-z0-9._:-]{8,128}$/.test(incoming) ? incoming : newRequestId();

/** The request's id: a sane incoming X-Request-Id, or a new one. */
export const requestIdOf = (request: Request): string => keptOrNewRequestId(request.headers.get('x-request-id'));

/**
 * The same for a request served from node:http (the OAuth server). The node server takes it once
 * and hands it on as the request's own X-Request-Id, so every later reading of it is the same id.
 */
export const requestIdOfNode = (req: IncomingMessage): string => keptOrNewRequestId(req.headers['x-request-id']);

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers } });
}

/**
 * The most an error answer's body may hold, whatever the input: an error names what was wrong
 * in a few words and the first problems of a body, never echoes the body (a 0.8 MB ingest got a
 * 23 MB 400). An ApiError's message and param are clipped when it is made (errors/index.ts).
 */
export const ERROR_BODY_MAX_BYTES = 64 * 1024;

/**
 * The error envelope, `{ error: { code, message, param?, requestId, ...details } }`. `details`
 * (an ingest's problem lines) goes only while the body stays within ERROR_BODY_MAX_BYTES;
 * past it the answer carries the code and message alone.
 */
export function errorBody(error: ApiError, requestId: string, details?: Record<string, unknown>): string {
  const envelope = {
    code: error.code,
    message: error.message,
    ...(error.param ? { param: error.param } : {}),
    requestId,
  };
  const body = JSON.stringify({ error: details ? { ...envelope, ...details } : envelope });
  return details && Buffer.byteLength(body) > ERROR_BODY_MAX_BYTES ? JSON.stringify({ error: envelope }) : body;
}

/** The envelope as a response: the error's status, its headers over `headers`. */
export function errorResponse(
  error: ApiError,
  requestId: string,
  headers: Record<string, string> = {},
  details?: Record<string, unknown>,
): Response {
  return new Response(errorBody(error, requestId, details), {
    status: error.status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers, ...error.headers },
  });
}

/**
 * The GET a HEAD stands for (RFC 9110 §9.3.2): its URL and headers. Built from them, not from the
 * request itself: the node server's requests are @whatwg-node's, which the platform's Request
 * constructor does not take as a request (it reads one as a URL, and fails).
 */
export const getStandingFor = (head: Request): Request => new Request(head.url, { headers: head.headers });

/** A HEAD answer is the GET answer without its body. */
export function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}
