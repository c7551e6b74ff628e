// The authorization server is served from node:http (oidc-provider is a Koa app): an answer made
// as a Response is written out.
import type { ServerResponse } from 'node:http';
import type { mcpErrorResponse } from '../errors.js';
import type { NodeAnswer } from '../../doors/index.js';

/** An answer made as a Response (the service's error envelope), written to node:http. */
export async function writeResponse(res: ServerResponse, response: ReturnType<typeof mcpErrorResponse>) {
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
}

/** An answer the boundary made for node:http (an OAuth error), written out. */
export const writeNodeAnswer = (res: ServerResponse, answer: NodeAnswer) =>
  res.writeHead(answer.status, answer.headers).end(answer.body);
