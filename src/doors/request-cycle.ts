// What every request of the app goes through, whichever door answers it: its id, its count in
// its workspace's lane, its span, the boundary for what escaped its door, the failed-auth
// throttle, the headers every answer carries, its metric and its log line.
import type { Logger } from 'pino';
import { NO_SNIFF, requestIdOf } from '../http/responses.js';
import { closesAfterUnreadBody } from '../http/body.js';
import { clientAddress } from '../http/client-address.js';
import type { Connection } from '../http/connection.js';
import { inRequestSpan } from '../observability/tracing.js';
import type { Metrics } from '../observability/metrics.js';
import { routeTemplateOf } from '../observability/route-templates.js';
import { v1RouteTemplate } from '../rest/index.js';
import { failureResponse } from './boundary.js';
import { doorOf } from './routes.js';

/** One request as a door sees it beside the request itself. */
export interface Exchange {
  requestId: string;
  /** The client's address (X-Forwarded-For when the proxy is trusted). */
  address: string;
  connection: Connection;
}

export interface RequestCycleDeps {
  logger: Logger;
  metrics: Metrics;
  trustProxy: boolean;
  /** The workspace lanes (auth/workspace-concurrency.ts): the request is counted while it runs. */
  concurrency: {
    track<T>(handle: () => Promise<T>): { result: Promise<T>; release(): void; workspaceId(): string | null };
  };
  /** Slows an address whose requests keep failing authentication (auth/failed-auth-throttle.ts). */
  failedAuth: { answer(request: Request, response: Response, address: string, requestId: string): Promise<Response> };
  route(request: Request, url: URL, exchange: Exchange): Promise<Response>;
}

export function createRequestCycle(deps: RequestCycleDeps) {
  const { logger, metrics } = deps;

  /** The door's answer, or its door's failure for what escaped it (a malformed path, a client gone). */
  async function answer(request: Request, url: URL, exchange: Exchange, template: string): Promise<Response> {
    const { requestId, connection } = exchange;
    const tracked = deps.concurrency.track(async () =>
      inRequestSpan(request, template, requestId, () => deps.route(request, url, exchange)),
    );
    void (connection.ended ?? tracked.result.catch(() => {})).then(tracked.release);
    try {
      const response = await tracked.result;
      const workspaceId = tracked.workspaceId();
      if (workspaceId) connection.attribute?.(workspaceId);
      return response;
    } catch (error) {
      // In the shape of the door the path names (a page for a browser under /app), as a door's own failures are.
      const { failures } = doorOf(url.pathname);
      return failureResponse(failures, request, error, { requestId, logger, what: 'unhandled error' }, () => false);
    }
  }

  return async function handle(request: Request, connection: Connection = {}): Promise<Response> {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const url = new URL(request.url);
    const template = routeTemplateOf(url.pathname, v1RouteTemplate);
    const address = clientAddress(request.headers.get('x-forwarded-for'), connection.remoteAddress, deps.trustProxy);
    let response = await answer(request, url, { requestId, address, connection }, template);
    response = await deps.failedAuth.answer(request, response, address, requestId);
    response.headers.set('X-Request-Id', requestId);
    // Set here rather than on Node's response before it is written: headers set beforehand make
    // node:http set and check each of the answer's headers one by one.
    response.headers.set(NO_SNIFF.name, NO_SNIFF.value);
    // An answer given without reading a chunked or large body (a 401, a 405) closes the
    // connection rather than reading the rest to keep it (see doors/node-server.ts).
    if (closesAfterUnreadBody(request)) response.headers.set('Connection', 'close');
    const seconds = (performance.now() - started) / 1000;
    metrics.observeRequest(template, request.method, response.status, seconds);
    const { method } = request;
    const ms = Math.round(seconds * 1000);
    logger.info({ requestId, method, path: url.pathname, status: response.status, ms }, 'request');
    return response;
  };
}
