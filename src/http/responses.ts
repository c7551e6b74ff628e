import { randomUUID } from 'node:crypto';
import type { ApiError } from '../errors/index.js';
// Responses are @whatwg-node/fetch's: the node:http adapter writes their string or byte body in
// one write, where a native Response's body would be streamed (17 % of CPU went to writev).
import { Response } from '@whatwg-node/fetch';

export { Response };

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export const newRequestId = () => `req_${randomUUID().replace(/-/g, '')}`;

/** Honours a sane incoming X-Request-Id (from a load balancer); otherwise makes one. */
export function requestIdOf(request: Request): string {
  const incoming = request.headers.get('x-request-id');
  return incoming && /^[A-Za-z0-9._:-]{8,128}$/.test(incoming) ? incoming : newRequestId();
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers } });
}

export function errorResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(
    { error: { code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}), requestId } },
    error.status,
    { ...headers, ...error.headers },
  );
}

/** A HEAD answer is the GET answer without its body. */
export function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}
