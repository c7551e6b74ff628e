// The authorization server is served from node:http (oidc-provider is a Koa app): the request's
// id is taken as the app's doors take it, and an answer made as a Response is written out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf } from '../../http/responses.js';
import type { mcpErrorResponse } from '../errors.js';
import type { NodeAnswer } from '../../doors/index.js';

/** A sane X-Request-Id the request came with, or a new id. */
export function requestIdOfNode(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  const headers = new Headers(typeof incoming === 'string' ? { 'x-request-id': incoming } : {});
  return requestIdOf({ headers } as Request);
}

/** An answer made as a Response (the service's error envelope), written to node:http. */
export async function writeResponse(res: ServerResponse, response: ReturnType<typeof mcpErrorResponse>) {
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
}

/** An answer the boundary made for node:http (an OAuth error), written out. */
export const writeNodeAnswer = (res: ServerResponse, answer: NodeAnswer) =>
  res.writeHead(answer.status, answer.headers).end(answer.body);
