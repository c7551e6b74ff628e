// One authenticated POST to /mcp, served: the body read once, its calls metered on a ledger, and
// the message answered the cheapest way that gives the SDK's exact bytes — the plainest 2025-era
// `tools/call` directly (direct-tool-calls.ts), other 2025-era messages by the stateless idiom,
// and 2026-07-28 ones (stateless per-request envelopes, `server/discover`) by the SDK's handler.
import {
  createMcpHandler as createSdkHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Admitted, Principal } from '../../auth/index.js';
import { BODY_LIMITS, bounded } from '../../http/body.js';
import { Response } from '../../http/responses.js';
import { createCallLedger, refusedResponse, type CallLedger } from '../tools/call-limits.js';
import type { BoundRequest, Holder } from '../tools/tool-calls.js';
import { resultResponseBody } from '../tools/tool-results.js';
import type { ToolSelection } from '../tools/toolsets.js';
import { declaresViewsAtInitialize, VIEWS_SESSION_PREFIX, viewsSessionId } from './app-views.js';
import { directToolCallOf } from './direct-tool-calls.js';
import { readMessage } from './messages.js';
import { buildServer, type ServerParts } from './server.js';

export interface TransportDeps {
  logger: Logger;
  /** Spends a call's token from the same buckets as v1 (the connection's and its workspace's); throws the refusal. */
  meter(principal: Principal): Promise<Admitted>;
  /** The cap on one JSON answer (RESPONSE_MAX_BYTES), which a batch's results share. */
  maxResponseBytes: number;
}

/**
 * The SDK's 2026-07-28 handler: it asks the factory for a server per request, bound to what
 * authenticate() and the URL decided (handed over as the request's auth info). 2025-era requests
 * are told apart with the SDK's own predicate and served in viaSdk().
 */
function sdkHandlerFor(deps: TransportDeps, parts: ServerParts) {
  return createSdkHandler(
    (context) => {
      const bound = (context.authInfo?.extra as { bound?: BoundRequest } | undefined)?.bound;
      if (!bound) throw new Error('an MCP request reached the SDK without its verified token');
      return buildServer(bound, parts);
    },
    {
      legacy: 'reject',
      maxRequestBodySize: BODY_LIMITS.mcp,
      onerror: (error) => deps.logger.warn({ err: error }, 'mcp request refused'),
    },
  );
}

export function createTransport(deps: TransportDeps, parts: ServerParts) {
  const sdkHandler = sdkHandlerFor(deps, parts);

  /** The message of an authenticated POST, answered. */
  async function serve(incoming: Request, holder: Holder, selection: ToolSelection, requestId: string) {
    const request = await bounded(incoming, BODY_LIMITS.mcp);
    // Read and parsed once for the era check and the serving.
    const message = readMessage(await request.arrayBuffer(), request.headers);
    if (message instanceof Response) return message;
    const { text, parsedBody } = message;
    const ledger = createCallLedger(
      () => deps.meter(holder.principal),
      Array.isArray(parsedBody) ? deps.maxResponseBytes : null,
    );
    const views = request.headers.get('mcp-session-id')?.startsWith(VIEWS_SESSION_PREFIX) ?? false;
    const bound: BoundRequest = { holder, selection, requestId, ledger, views, signal: incoming.signal };
    // A call the direct path takes names a 2025 version and carries no envelope claim: the SDK's
    // era predicate would call it legacy, so it is not asked.
    const direct = directToolCallOf(request.headers, parsedBody);
    if (direct) {
      const result = await parts.toolCalls.answerToolCall(bound, direct.params);
      if (ledger.refusal) return refusedResponse(direct.id, ledger.refusal);
      return new Response(resultResponseBody(direct.id, result), {
        status: 200,
        headers: { 'content-type': 'application/json', ...ledger.headers },
      });
    }
    // The SDK reads the parsed body and never the stream, so the request goes to it as it is; only
    // a body that is not JSON is handed over again as text (see docs/decisions/mcp-transport-costs.md).
    const forSdk =
      parsedBody === undefined
        ? new Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal })
        : request;
    return buffered(await viaSdk(forSdk, parsedBody, bound), parsedBody, ledger);
  }

  async function viaSdk(request: Request, parsedBody: unknown, bound: BoundRequest): Promise<globalThis.Response> {
    const authInfo = {
      token: bound.holder.token,
      clientId: bound.holder.principal.clientId,
      scopes: [...bound.holder.scopes],
      extra: { bound },
    };
    if (!(await isLegacyRequest(request, parsedBody))) return sdkHandler.fetch(request, { parsedBody, authInfo });
    // 2025-era clients: the stateless idiom with JSON answers (the SDK's own legacy leg streams
    // SSE, which costs more and buys nothing here).
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await buildServer(bound, parts).connect(transport);
    const answered = await transport.handleRequest(request, { parsedBody, authInfo });
    if (declaresViewsAtInitialize(parsedBody) && answered.ok) answered.headers.set('mcp-session-id', viewsSessionId());
    return answered;
  }

  /**
   * A stream (2026-07-28 `subscriptions/listen`) passes through. Otherwise the SDK's native
   * Response becomes one buffered body (our Response), written in one write; not compressed
   * (docs/decisions/mcp-transport-costs.md).
   */
  async function buffered(answered: globalThis.Response, parsedBody: unknown, ledger: CallLedger) {
    if (answered.headers.get('content-type')?.startsWith('text/event-stream')) return answered;
    // One message whose call was refused is told so by HTTP too (inside a batch, its tool error says it).
    if (ledger.refusal && !Array.isArray(parsedBody))
      return refusedResponse((parsedBody as { id?: unknown }).id, ledger.refusal);
    const response = new Response(answered.body ? await answered.arrayBuffer() : null, {
      status: answered.status,
      headers: answered.headers,
    });
    for (const [name, value] of Object.entries(ledger.headers)) response.headers.set(name, value);
    return response;
  }

  return { serve, toolsChanged: () => sdkHandler.notify.toolsChanged() };
}
