// /mcp: the MCP connector over Streamable HTTP with the official SDK v2, serving protocol
// 2026-07-28 (stateless per-request envelopes, `server/discover`) and 2025-era clients (stateless
// legacy serving) from one handler. Each request gets a server bound to its token's person,
// workspace, consent and URL, so any instance can answer any request and nothing lives between
// them — except the plainest 2025-era `tools/call`, which is answered without one, as the SDK
// would (direct-tool-calls.ts). Bearer tokens come from our authorization server; without a valid
// one the answer is 401 with the resource-metadata pointer.
import {
  createMcpHandler as createSdkHandler,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { GraphQLSchema } from 'graphql';
import { bearerToken } from '../../auth/index.js';
import { SCOPES, type Admitted, type Principal } from '../../auth/index.js';
import { ApiError } from '../../errors/index.js';
import { errorResponse, jsonResponse, Response } from '../../http/responses.js';
import { BODY_LIMITS, bounded } from '../../http/body.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import { MCP_PLANS } from '../oauth/oauth-accounts.js';
import { planList, planName } from '../../workspaces/index.js';
import { MCP_PATH } from '../connector.js';
import { createCallLedger, refusedResponse } from '../tools/call-limits.js';
import { readMessage } from './messages.js';
import { directToolCallOf, type ToolCallParams } from './direct-tool-calls.js';
import { resultResponseBody } from '../tools/tool-results.js';
import { createToolCalls, type BoundRequest, type Holder, type Tool, type ToolCallDeps } from '../tools/tool-calls.js';
import { loadOperationTools } from '../tools/operation-tools.js';
import {
  APP_TOOLS,
  declaresViews,
  declaresViewsAtInitialize,
  readUiResource,
  toolUiMeta,
  UI_RESOURCE_LIST,
  VIEW_OPERATIONS_DIR,
  VIEWS_EXTENSION,
  VIEWS_SESSION_PREFIX,
  viewsSessionId,
} from './app-views.js';
import { PROMPTS, renderPrompt } from './prompts.js';
import { reportResource, REPORT_RESOURCE_TEMPLATE } from './resources.js';
import { WRITE_TOOLS, type WriteTool } from '../tools/write-tools.js';
import {
  consentOf,
  RESOURCE_SCOPES,
  scopesFor,
  TOOLSET_OF,
  toolSelectionOf,
  type ToolSelection,
} from '../tools/toolsets.js';

export interface McpDeps extends ToolCallDeps {
  schema: GraphQLSchema;
  authorizationServer: AuthorizationServer;
  /** Spends a call's token from the same buckets as v1 (the connection's and its workspace's); throws the refusal. */
  meter(principal: Principal): Promise<Admitted>;
  /** Browser-based MCP clients' origins (MCP_ALLOWED_ORIGINS): CORS, bearer token only. */
  allowedOrigins: readonly string[];
  /** The cap on one JSON answer (RESPONSE_MAX_BYTES), which a batch's results share. */
  maxResponseBytes: number;
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

const INSTRUCTIONS = `Signalboard is a marketing reporting platform. Tools read one workspace's clients, reports and report data, and AI-visibility projects (how often AI assistants mention a brand and its competitors). Start with whoami and list_clients. Rates: visibility and shareOfVoice are 0..1, averagePosition 1 = first, sentiment -1..1, pooled per locale. Write tools exist only when the workspace's admin has switched write actions on.`;

// 2026-07-28 list results may be cached by the client alone, briefly: the tool list changes when
// an admin flips the write switch, and clients are told so (notifications/tools/list_changed).
const LIST_CACHE = { ttlMs: 30_000, cacheScope: 'private' } as const;
const CACHE_HINTS = {
  'tools/list': LIST_CACHE,
  'prompts/list': LIST_CACHE,
  'resources/list': LIST_CACHE,
  'resources/templates/list': LIST_CACHE,
  'server/discover': LIST_CACHE,
};

// Tool annotations say only what differs from the spec's defaults (readOnlyHint false,
// destructiveHint true, idempotentHint false, openWorldHint true): every tools/list pays for them.
const READ_ANNOTATIONS = { readOnlyHint: true, openWorldHint: false };
const writeAnnotations = (tool: WriteTool) => ({
  ...(tool.destructive ? {} : { destructiveHint: false }),
  ...(tool.idempotent ? { idempotentHint: true } : {}),
  ...(tool.openWorld ? {} : { openWorldHint: false }),
});

export function createMcpHandler(deps: McpDeps) {
  // One validator for every per-request server: constructing Ajv cost more than a tool call.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  // The SDK's 2026-07-28 handler: it asks the factory for a server per request, bound to what
  // authenticate() and the URL decided (handed over as the request's auth info). 2025-era
  // requests are told apart with the SDK's own predicate and served in answer().
  const sdkHandler = createSdkHandler(
    (context) => {
      const bound = (context.authInfo?.extra as { bound?: BoundRequest } | undefined)?.bound;
      if (!bound) throw new Error('an MCP request reached the SDK without its verified token');
      return buildServer(bound);
    },
    {
      legacy: 'reject',
      maxRequestBodySize: BODY_LIMITS.mcp,
      onerror: (error) => deps.logger.warn({ err: error }, 'mcp request refused'),
    },
  );
  const readTools = loadOperationTools(deps.schema);
  // The views' own tools: listed only to clients with views, marked app-only (app-views.ts).
  const viewTools = loadOperationTools(deps.schema, VIEW_OPERATIONS_DIR);
  const unnamed = viewTools.filter((tool) => !(tool.name in APP_TOOLS)).map((tool) => tool.name);
  if (unnamed.length)
    throw new Error(`view tools without their view (mcp/app-views.ts APP_TOOLS): ${unnamed.join(', ')}`);
  const toolsByName = new Map<string, Tool>(
    [...readTools, ...viewTools, ...WRITE_TOOLS].map((tool) => [tool.name, tool]),
  );
  const homeless = [...toolsByName.keys()].filter((name) => !TOOLSET_OF[name]);
  if (homeless.length) throw new Error(`MCP tools without a toolset (mcp/toolsets.ts): ${homeless.join(', ')}`);
  const { visibleTools, callTool, answerToolCall } = createToolCalls(deps, toolsByName);

  const metadataUrl = () => `${deps.authorizationServer.issuer()}/.well-known/oauth-protected-resource${MCP_PATH}`;

  /** 401 with where to get a token and the scopes this URL's selection needs (clients ask for them as they are). */
  function unauthorized(requestId: string, selection: ToolSelection, error?: { code: string; description: string }) {
    const challenge = [
      `Bearer resource_metadata="${metadataUrl()}"`,
      `scope="${scopesFor(selection).join(' ')}"`,
      ...(error ? [`error="${error.code}"`, `error_description="${error.description}"`] : []),
    ].join(', ');
    return jsonResponse(
      {
        error: {
          code: 'unauthenticated',
          message:
            error?.description ??
            'Send an OAuth access token for this MCP server (discover the authorization server from the WWW-Authenticate header).',
          requestId,
        },
      },
      401,
      { 'WWW-Authenticate': challenge },
    );
  }

  async function authenticate(request: Request): Promise<Holder | 'missing' | 'invalid' | ApiError> {
    const token = bearerToken(request.headers.get('authorization'));
    if (!token) return 'missing';
    const holder = await deps.authorizationServer.verifyAccessToken(token);
    if (!holder) return 'invalid';
    if (!MCP_PLANS.includes(holder.plan))
      return new ApiError(
        'plan_required',
        `The MCP connector needs the ${planList(MCP_PLANS, 'or')} plan; this workspace is on ${planName(holder.plan)}.`,
      );
    return {
      principal: {
        kind: 'oauth',
        credentialId: `${holder.clientId}:${holder.userId}`,
        workspaceId: holder.workspaceId,
        plan: holder.plan,
        timezone: holder.timezone,
        scopes: SCOPES,
        userId: holder.userId,
        email: holder.email,
        role: holder.role,
        clientId: holder.clientId,
        clientName: holder.clientName,
      },
      token,
      scopes: holder.scopes,
      writeActions: holder.writeActions,
      consent: consentOf(holder.scopes),
    };
  }

  function buildServer(bound: BoundRequest): Server {
    const server = new Server(
      { name: 'signalboard', title: 'Signalboard', version: '1.0.0' },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: {},
          prompts: {},
          extensions: { [VIEWS_EXTENSION]: {} },
        },
        instructions: INSTRUCTIONS,
        jsonSchemaValidator,
        cacheHints: CACHE_HINTS,
      },
    );
    server.setRequestHandler('tools/list', async () => {
      // 2026-07-28 requests carry the client's capabilities each; 2025-era ones said them at initialize.
      const views = bound.views || declaresViews(server.getClientCapabilities());
      return {
        tools: visibleTools(bound)
          .filter((tool) => views || !(tool.name in APP_TOOLS))
          .map((tool) => ({
            name: tool.name,
            title: tool.title,
            description: tool.description,
            inputSchema: tool.inputSchema as never,
            ...('outputSchema' in tool && tool.outputSchema ? { outputSchema: tool.outputSchema as never } : {}),
            annotations: 'write' in tool ? writeAnnotations(tool) : READ_ANNOTATIONS,
            ...(views ? toolUiMeta(tool.name) : {}),
          })),
      };
    });
    server.setRequestHandler('tools/call', (request) => answerToolCall(bound, request.params as ToolCallParams));
    // Listed for every client: hosts read views through resources/* on any endpoint (a failing one blanks the view).
    server.setRequestHandler('resources/list', async () => ({ resources: UI_RESOURCE_LIST }));
    server.setRequestHandler('resources/templates/list', async () => ({
      resourceTemplates: [REPORT_RESOURCE_TEMPLATE],
    }));
    server.setRequestHandler('resources/read', async (request) => {
      const view = await readUiResource(request.params.uri);
      if (view) {
        // Metered like every read, though the document is the same for everyone.
        const refused = await bound.ledger.admit();
        if (refused) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, refused.message);
        return { contents: [view] };
      }
      const contents = await reportResource(request.params.uri, (id) =>
        callTool(
          { ...bound, selection: { ...bound.selection, toolsets: new Set([...bound.selection.toolsets, 'reports']) } },
          'get_report',
          { id },
        ),
      );
      if (!contents)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `No resource ${request.params.uri} in this workspace.`,
        );
      return { contents: [contents] };
    });
    server.setRequestHandler('prompts/list', async () => ({
      prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({
        name,
        title,
        description,
        arguments: args,
      })),
    }));
    server.setRequestHandler('prompts/get', async (request) =>
      renderPrompt(request.params.name, request.params.arguments ?? {}),
    );
    return server;
  }

  /** /mcp after the Origin check: a preflight, or a JSON-RPC message with a bearer token. */
  async function answer(incoming: Request, requestId: string, selection: ToolSelection): Promise<Response> {
    if (incoming.method === 'OPTIONS' && incoming.headers.has('origin')) {
      return new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Methods': 'POST',
          'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS,
          'Access-Control-Max-Age': '600',
        },
      });
    }
    // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
    // Answering at once means no request can hold a handler open.
    if (incoming.method !== 'POST')
      return errorResponse(
        new ApiError('method_not_allowed', 'This MCP server is stateless: send JSON-RPC messages with POST.'),
        requestId,
        { Allow: 'POST' },
      );
    const holder = await authenticate(incoming);
    if (holder === 'missing') return unauthorized(requestId, selection);
    if (holder === 'invalid')
      return unauthorized(requestId, selection, {
        code: 'invalid_token',
        description: 'The access token is unknown, expired, revoked or for another resource.',
      });
    if (holder instanceof ApiError)
      return jsonResponse({ error: { code: holder.code, message: holder.message, requestId } }, holder.status);
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
    const bound: BoundRequest = { holder, selection, requestId, ledger, views };
    // A call the direct path takes names a 2025 version and carries no envelope claim: the SDK's
    // era predicate would call it legacy, so it is not asked (its classification cost 15 µs).
    const direct = directToolCallOf(request.headers, parsedBody);
    if (direct) {
      const result = await answerToolCall(bound, direct.params);
      if (ledger.refusal) return refusedResponse(direct.id, ledger.refusal);
      return new Response(resultResponseBody(direct.id, result), {
        status: 200,
        headers: { 'content-type': 'application/json', ...ledger.headers },
      });
    }
    // The SDK reads the parsed body and never the stream, so the request goes to it as it is; only
    // a body that is not JSON is handed over again as text (a native Request per call cost 4 % of an MCP call's CPU).
    const forSdk =
      parsedBody === undefined
        ? new Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal })
        : request;
    const authInfo = {
      token: holder.token,
      clientId: holder.principal.clientId,
      scopes: [...holder.scopes],
      extra: { bound },
    };
    let answered: globalThis.Response;
    if (await isLegacyRequest(forSdk, parsedBody)) {
      // 2025-era clients: the stateless idiom with JSON answers (the SDK's own legacy leg streams SSE, which costs more and buys nothing here).
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await buildServer(bound).connect(transport);
      answered = await transport.handleRequest(forSdk, { parsedBody, authInfo });
      if (declaresViewsAtInitialize(parsedBody) && answered.ok)
        answered.headers.set('mcp-session-id', viewsSessionId());
    } else {
      answered = await sdkHandler.fetch(forSdk, { parsedBody, authInfo });
    }
    // A stream (2026-07-28 `subscriptions/listen`) passes through. Otherwise the SDK's native
    // Response, whose body node:http would write in many small writes, becomes one buffered body
    // (our Response): one write. Not compressed: the answers are never cached and gzip of the
    // doubled JSON (text + structured) cost more than it saved.
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

  return {
    /**
     * An invalidation message (local or from another instance). A workspace change (`*:<id>`:
     * its write switch or plan) may change tool lists: open 2026-07-28 `subscriptions/listen`
     * streams on this instance are told to list again (every stream: the bus does not know
     * workspaces, and a needless re-list costs one cached request).
     */
    invalidate(target: string) {
      if (target.startsWith('*')) sdkHandler.notify.toolsChanged();
    },
    /** Protected-resource metadata (RFC 9728): where to get a token for /mcp. Public, so any origin may read it. */
    metadata(): Response {
      return jsonResponse(
        {
          resource: deps.authorizationServer.resource(),
          authorization_servers: [deps.authorizationServer.issuer()],
          scopes_supported: RESOURCE_SCOPES,
          bearer_methods_supported: ['header'],
          resource_name: 'Signalboard',
          resource_documentation: `${deps.authorizationServer.issuer()}/api/v1/docs`,
        },
        200,
        { 'Access-Control-Allow-Origin': '*' },
      );
    },
    /** /mcp and its toolset URLs (`subPath` is what follows /mcp: '', '/readonly', '/x/reports,answers', …). */
    async handle(incoming: Request, requestId: string, subPath = ''): Promise<Response> {
      let selection: ToolSelection | null;
      try {
        selection = toolSelectionOf(subPath, incoming.headers);
      } catch (error) {
        if (error instanceof ApiError) return errorResponse(error, requestId);
        throw error;
      }
      if (!selection)
        return errorResponse(
          new ApiError(
            'not_found',
            'No such MCP URL: use /mcp, /mcp/readonly or /mcp/x/<toolset>[,<toolset>…][/readonly].',
          ),
          requestId,
        );
      const origin = incoming.headers.get('origin');
      // The transport rules: a browser's foreign Origin is refused (DNS rebinding, cross-site
      // calls) unless it is an allowed MCP client's, which gets CORS with its bearer token only.
      const allowed = origin !== null && deps.allowedOrigins.includes(origin);
      if (origin !== null && origin !== deps.authorizationServer.issuer() && !allowed)
        return errorResponse(
          new ApiError('forbidden', `Requests from ${origin.slice(0, 200)} are not allowed here.`),
          requestId,
        );
      const response = await answer(incoming, requestId, selection);
      if (allowed) for (const [name, value] of Object.entries(corsHeaders(origin))) response.headers.set(name, value);
      return response;
    },
  };
}
