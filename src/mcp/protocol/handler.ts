// /mcp: the MCP connector over Streamable HTTP with the official SDK v2, serving protocol
// 2026-07-28 and 2025-era clients from one handler (transport.ts). Each request gets a server
// bound to its token's person, workspace, consent and URL (server.ts), so any instance can answer
// any request and nothing lives between them. Bearer tokens come from our authorization server
// (bearer.ts); without a valid one the answer is 401 with the resource-metadata pointer.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { GraphQLSchema } from 'graphql';
import { ApiError } from '../../errors/index.js';
import { jsonResponse, Response } from '../../http/responses.js';
import { mcpErrorResponse } from '../errors.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import { loadCatalogue } from '../tools/catalogue.js';
import { createToolCalls, type ToolCallDeps } from '../tools/tool-calls.js';
import { RESOURCE_SCOPES, toolSelectionOf, type ToolSelection } from '../tools/toolsets.js';
import { authenticate, unauthorized } from './bearer.js';
import { createTransport, type TransportDeps } from './transport.js';

export interface McpDeps extends ToolCallDeps, TransportDeps {
  schema: GraphQLSchema;
  authorizationServer: AuthorizationServer;
  /** Browser-based MCP clients' origins (MCP_ALLOWED_ORIGINS): CORS, bearer token only. */
  allowedOrigins: readonly string[];
}

// What a browser-based MCP client sends and must read (the SDK's headers; the challenge).
const CORS_REQUEST_HEADERS =
  'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-Id';
const CORS_EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, X-Request-Id';

/** CORS for an allowed origin: no Allow-Credentials, so a browser never sends cookies along. */
const corsHeaders = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS,
  Vary: 'Origin',
});

const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'POST',
  'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS,
  'Access-Control-Max-Age': '600',
};

const PUBLIC_PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD',
  'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS,
  'Access-Control-Max-Age': '600',
};

/**
 * Protected-resource metadata (RFC 9728): where to get a token for /mcp. Public, so any origin may read it, with the
 * headers the MCP SDK sends along (its preflight answered here; the door takes GET, HEAD and OPTIONS).
 */
function resourceMetadata(server: AuthorizationServer, incoming: Request): Response {
  if (incoming.method === 'OPTIONS') return new Response(null, { status: 204, headers: PUBLIC_PREFLIGHT_HEADERS });
  return jsonResponse(
    {
      resource: server.resource(),
      authorization_servers: [server.issuer()],
      scopes_supported: RESOURCE_SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'Signalboard',
      resource_documentation: `${server.issuer()}/api/v1/docs`,
    },
    200,
    { 'Access-Control-Allow-Origin': '*' },
  );
}

const NO_SUCH_URL = 'No such MCP URL: use /mcp, /mcp/readonly or /mcp/x/<toolset>[,<toolset>…][/readonly].';

export function createMcpHandler(deps: McpDeps) {
  const toolCalls = createToolCalls(deps, loadCatalogue(deps.schema));
  // One validator for every per-request server: constructing Ajv cost more than a tool call.
  const transport = createTransport(deps, { jsonSchemaValidator: new AjvJsonSchemaValidator(), toolCalls });
  const server = deps.authorizationServer;

  /** /mcp after the Origin check: a preflight, or a JSON-RPC message with a bearer token. */
  async function answer(incoming: Request, requestId: string, selection: ToolSelection): Promise<Response> {
    if (incoming.method === 'OPTIONS' && incoming.headers.has('origin'))
      return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
    // Answering at once means no request can hold a handler open.
    if (incoming.method !== 'POST')
      return mcpErrorResponse(
        new ApiError('method_not_allowed', 'This MCP server is stateless: send JSON-RPC messages with POST.'),
        requestId,
        { Allow: 'POST' },
      );
    const holder = await authenticate(server, incoming);
    if (holder === 'missing' || holder === 'invalid') return unauthorized(server, requestId, selection, holder);
    if (holder instanceof ApiError) return mcpErrorResponse(holder, requestId);
    return transport.serve(incoming, holder, selection, requestId);
  }

  /** The URL's selection, or the refusal of a URL or X-MCP-* header that names none. */
  function selectionOf(incoming: Request, subPath: string): ToolSelection | ApiError {
    try {
      return toolSelectionOf(subPath, incoming.headers) ?? new ApiError('not_found', NO_SUCH_URL);
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
  }

  return {
    /**
     * An invalidation message (local or from another instance). A workspace change (`*:<id>`:
     * its write switch or plan) may change tool lists: open 2026-07-28 `subscriptions/listen`
     * streams on this instance are told to list again (every stream: the bus does not know
     * workspaces, and a needless re-list costs one cached request).
     */
    invalidate(target: string) {
      if (target.startsWith('*')) transport.toolsChanged();
    },
    metadata: (incoming: Request) => resourceMetadata(server, incoming),
    /** /mcp and its toolset URLs (`subPath` is what follows /mcp: '', '/readonly', '/x/reports,answers', …). */
    async handle(incoming: Request, requestId: string, subPath = ''): Promise<Response> {
      const selection = selectionOf(incoming, subPath);
      if (selection instanceof ApiError) return mcpErrorResponse(selection, requestId);
      const origin = incoming.headers.get('origin');
      // The transport rules: a browser's foreign Origin is refused (DNS rebinding, cross-site
      // calls) unless it is an allowed MCP client's, which gets CORS with its bearer token only.
      const allowed = origin !== null && deps.allowedOrigins.includes(origin);
      if (origin !== null && origin !== server.issuer() && !allowed)
        return mcpErrorResponse(
          new ApiError('forbidden', `Requests from ${origin.slice(0, 200)} are not allowed here.`),
          requestId,
        );
      const response = await answer(incoming, requestId, selection);
      if (allowed) for (const [name, value] of Object.entries(corsHeaders(origin))) response.headers.set(name, value);
      return response;
    },
  };
}
