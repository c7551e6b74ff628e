// /mcp: the MCP connector over Streamable HTTP with the official SDK v2, serving protocol
// 2026-07-28 (stateless per-request envelopes, `server/discover`) and 2025-era clients (stateless
// legacy serving) from one handler. Each request gets a server bound to its token's person,
// workspace, consent and URL, so any instance can answer any request and nothing lives between
// them — except the plainest 2025-era `tools/call`, which is answered without one, as the SDK
// would (direct-tool-calls.ts). Bearer tokens come from our authorization server; without a valid
// one the answer is 401 with the resource-metadata pointer.
import { createMcpHandler as createSdkHandler, isLegacyRequest, ProtocolError, ProtocolErrorCode, Server, WebStandardStreamableHTTPServerTransport, type CallToolResult } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { bearerToken } from '../auth/index.js';
import { SCOPES, type Principal } from '../auth/index.js';
import { ApiError, fromUsageError, toApiError, UsageError } from '../errors/index.js';
import { errorResponse, jsonResponse, Response } from '../http/responses.js';
import { BODY_LIMITS, bounded } from '../http/body.js';
import { runCompiled, type GraphQLContext } from '../graphql/context.js';
import type { AuthorizationServer } from './authorization-server.js';
import { MCP_PLANS } from './oauth-accounts.js';
import { planList, planName } from '../workspaces/index.js';
import type { Metrics } from '../observability/metrics.js';
import { contextFromCarrier, inSpan, SpanKind, tracing } from '../observability/tracing.js';
import { MCP_PATH } from './connector.js';
import { directToolCallOf, type ToolCallParams } from './direct-tool-calls.js';
import { resultResponseBody, structured, toolError } from './tool-results.js';
import { loadOperationTools, type OperationTool } from './operation-tools.js';
import { PROMPTS, renderPrompt } from './prompts.js';
import { reportResource, REPORT_RESOURCE_TEMPLATE } from './resources.js';
import { WRITE_TOOLS, type WriteTool } from './write-tools.js';
import { consentOf, RESOURCE_SCOPES, scopesFor, selects, TOOLSET_OF, toolSelectionOf, withinConsent, type Consent, type ToolSelection } from './toolsets.js';
import type { WriteDeps } from './write-tools.js';

export interface McpDeps {
  schema: GraphQLSchema;
  authorizationServer: AuthorizationServer;
  writes: Omit<WriteDeps, 'principal'>;
  logger: Logger;
  contextFor(principal: Principal, requestId: string): GraphQLContext;
  metrics: Pick<Metrics, 'toolCall'>;
  /** Browser-based MCP clients' origins (MCP_ALLOWED_ORIGINS): CORS, bearer token only. */
  allowedOrigins: readonly string[];
}

// What a browser-based MCP client sends and must read (the SDK's headers; the challenge).
const CORS_REQUEST_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-Id';
const CORS_EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, X-Request-Id';

/** CORS for an allowed origin: no Allow-Credentials, so a browser never sends cookies along. */
const corsHeaders = (origin: string): Record<string, string> => ({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS, Vary: 'Origin' });

interface Holder {
  principal: Extract<Principal, { kind: 'oauth' }>;
  token: string;
  scopes: readonly string[];
  writeActions: boolean;
  /** What the person allowed this token: it bounds every URL's selection. */
  consent: Consent;
}

const INSTRUCTIONS = `Signalboard is a marketing reporting platform. Tools read one workspace's clients, reports and report data, and AI-visibility projects (how often AI assistants mention a brand and its competitors). Start with whoami and list_clients. Rates: visibility and shareOfVoice are 0..1, averagePosition 1 = first, sentiment -1..1, pooled per locale. Write tools exist only when the workspace's admin has switched write actions on.`;

const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** What one request's server is bound to. */
interface BoundRequest {
  holder: Holder;
  selection: ToolSelection;
  requestId: string;
}

// 2026-07-28 list results may be cached by the client alone, briefly: the tool list changes when
// an admin flips the write switch, and clients are told so (notifications/tools/list_changed).
const LIST_CACHE = { ttlMs: 30_000, cacheScope: 'private' } as const;
const CACHE_HINTS = { 'tools/list': LIST_CACHE, 'prompts/list': LIST_CACHE, 'resources/list': LIST_CACHE, 'resources/templates/list': LIST_CACHE, 'server/discover': LIST_CACHE };

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
  const sdkHandler = createSdkHandler((context) => {
    const bound = (context.authInfo?.extra as { bound?: BoundRequest } | undefined)?.bound;
    if (!bound) throw new Error('an MCP request reached the SDK without its verified token');
    return buildServer(bound.holder, bound.selection, bound.requestId);
  }, { legacy: 'reject', maxRequestBodySize: BODY_LIMITS.mcp, onerror: (error) => deps.logger.warn({ err: error }, 'mcp request refused') });
  const readTools = loadOperationTools(deps.schema);
  const toolsByName = new Map<string, OperationTool | WriteTool>([...readTools, ...WRITE_TOOLS].map((tool) => [tool.name, tool]));
  const homeless = [...toolsByName.keys()].filter((name) => !TOOLSET_OF[name]);
  if (homeless.length) throw new Error(`MCP tools without a toolset (mcp/toolsets.ts): ${homeless.join(', ')}`);

  const metadataUrl = () => `${deps.authorizationServer.issuer()}/.well-known/oauth-protected-resource${MCP_PATH}`;

  /** 401 with where to get a token and the scopes this URL's selection needs (clients ask for them as they are). */
  function unauthorized(requestId: string, selection: ToolSelection, error?: { code: string; description: string }) {
    const challenge = [`Bearer resource_metadata="${metadataUrl()}"`, `scope="${scopesFor(selection).join(' ')}"`, ...(error ? [`error="${error.code}"`, `error_description="${error.description}"`] : [])].join(', ');
    return jsonResponse(
      { error: { code: 'unauthenticated', message: error?.description ?? 'Send an OAuth access token for this MCP server (discover the authorization server from the WWW-Authenticate header).', requestId } },
      401,
      { 'WWW-Authenticate': challenge },
    );
  }

  async function authenticate(request: Request): Promise<Holder | 'missing' | 'invalid' | ApiError> {
    const token = bearerToken(request.headers.get('authorization'));
    if (!token) return 'missing';
    const holder = await deps.authorizationServer.verifyAccessToken(token);
    if (!holder) return 'invalid';
    if (!MCP_PLANS.includes(holder.plan)) return new ApiError('plan_required', `The MCP connector needs the ${planList(MCP_PLANS, 'or')} plan; this workspace is on ${planName(holder.plan)}.`);
    return {
      principal: { kind: 'oauth', credentialId: `${holder.clientId}:${holder.userId}`, workspaceId: holder.workspaceId, plan: holder.plan, timezone: holder.timezone, scopes: SCOPES, userId: holder.userId, email: holder.email, role: holder.role, clientId: holder.clientId, clientName: holder.clientName },
      token,
      scopes: holder.scopes,
      writeActions: holder.writeActions,
      consent: consentOf(holder.scopes),
    };
  }

  /** The tools this connection shows: its toolsets and read-only choice within the token's consent, the person's role and the write switch. */
  function visibleTools(holder: Holder, selection: ToolSelection) {
    const allowed = withinConsent(selection, holder.consent);
    return [...toolsByName.values()].filter((tool) => isVisible(holder, allowed, tool));
  }

  /** One tool's visibility, for a call (which need not build the whole list). `allowed` is the selection within the token's consent. */
  function isVisible(holder: Holder, allowed: ToolSelection, tool: OperationTool | WriteTool) {
    return selects(allowed, tool) && ('write' in tool ? holder.writeActions : !tool.adminOnly || holder.principal.role !== 'member');
  }

  /** A tool call, counted by tool (names outside the catalogue as "unknown") and outcome. */
  async function callTool(holder: Holder, selection: ToolSelection, requestId: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const result = await runTool(holder, selection, requestId, name, args);
    deps.metrics.toolCall(toolsByName.has(name) ? name : 'unknown', result.isError ? 'error' : 'ok');
    return result;
  }

  /** A `tools/call`, whichever way it came (the SDK's server or the direct path), traced when tracing is on. */
  function answerToolCall(holder: Holder, selection: ToolSelection, requestId: string, params: ToolCallParams): Promise<CallToolResult> {
    const name = params.name;
    const call = () => callTool(holder, selection, requestId, name, params.arguments ?? {});
    if (!tracing.on) return call();
    // Named as OpenTelemetry's MCP conventions do; a client's `_meta.traceparent` is the parent.
    return inSpan(`tools/call ${toolsByName.has(name) ? name : 'unknown'}`, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': toolsByName.has(name) ? name : 'unknown' }, async (span) => {
      const result = await call();
      if (result.isError) span?.setAttribute('error.type', 'tool_error');
      return result;
    }, { kind: SpanKind.SERVER, parent: contextFromCarrier(params._meta) });
  }

  async function runTool(holder: Holder, selection: ToolSelection, requestId: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const tool = toolsByName.get(name);
    if (!tool || !isVisible(holder, withinConsent(selection, holder.consent), tool)) {
      const write = Boolean(tool && 'write' in tool);
      // Why a write tool is missing: the workspace's switch, or this connection's consent.
      const hidden = !write ? '' : holder.writeActions && !holder.consent.writes ? ' This connection was not allowed to make changes: reconnect the app and allow them.' : ' Write tools work only after an admin switches MCP write actions on in Settings.';
      return toolError(new ApiError(write ? 'forbidden' : 'not_found', `No tool ${name} is available to you.${hidden}`));
    }
    const unknown = Object.keys(args).filter((key) => !(key in ((tool.inputSchema.properties as Record<string, unknown>) ?? {})));
    if (unknown.length) return toolError(new ApiError('invalid_parameter', `Unknown argument ${unknown.join(', ')}.`, { param: unknown[0]! }));
    try {
      if ('write' in tool) return structured(await tool.run({ ...deps.writes, principal: holder.principal }, args));
      const result = await runCompiled(tool.compiled, deps.contextFor(holder.principal, requestId), args);
      if (result.errors?.length) {
        const known = toApiError(result.errors, (cause) => deps.logger.error({ err: cause, requestId, tool: name }, 'mcp tool failed'));
        // Variables of the wrong type are GraphQL validation errors without our code.
        return toolError(known.code === 'internal_error' && result.errors.every((error) => !error.extensions?.code && /Variable|got invalid value/i.test(error.message)) ? new ApiError('invalid_parameter', result.errors[0]!.message) : known);
      }
      const data = result.data as Record<string, unknown>;
      if (Object.values(data).some((value) => value === null)) return toolError(new ApiError('not_found', 'Nothing with that id in this workspace.'));
      return structured(data);
    } catch (error) {
      return toolError(error instanceof UsageError ? fromUsageError(error, 'invalid_parameter') : toApiError(error, (cause) => deps.logger.error({ err: cause, requestId, tool: name }, 'mcp tool failed')));
    }
  }

  function buildServer(holder: Holder, selection: ToolSelection, requestId: string): Server {
    const server = new Server({ name: 'signalboard', title: 'Signalboard', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator, cacheHints: CACHE_HINTS });
    server.setRequestHandler('tools/list', async () => ({
      tools: visibleTools(holder, selection).map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema as never,
        ...('outputSchema' in tool && tool.outputSchema ? { outputSchema: tool.outputSchema as never } : {}),
        annotations: 'write' in tool ? writeAnnotations(tool) : READ_ANNOTATIONS,
      })),
    }));
    server.setRequestHandler('tools/call', (request) => answerToolCall(holder, selection, requestId, request.params as ToolCallParams));
    server.setRequestHandler('resources/list', async () => ({ resources: [] }));
    server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [REPORT_RESOURCE_TEMPLATE] }));
    server.setRequestHandler('resources/read', async (request) => {
      const contents = await reportResource(request.params.uri, (id) => callTool(holder, { ...selection, toolsets: new Set([...selection.toolsets, 'reports']) }, requestId, 'get_report', { id }));
      if (!contents) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No resource ${request.params.uri} in this workspace.`);
      return { contents: [contents] };
    });
    server.setRequestHandler('prompts/list', async () => ({ prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })) }));
    server.setRequestHandler('prompts/get', async (request) => renderPrompt(request.params.name, request.params.arguments ?? {}));
    return server;
  }

  /** /mcp after the Origin check: a preflight, or a JSON-RPC message with a bearer token. */
  async function answer(incoming: Request, requestId: string, selection: ToolSelection): Promise<Response> {
    if (incoming.method === 'OPTIONS' && incoming.headers.has('origin')) {
      return new Response(null, { status: 204, headers: { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS, 'Access-Control-Max-Age': '600' } });
    }
    // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
    // Answering at once means no request can hold a handler open.
    if (incoming.method !== 'POST') return errorResponse(new ApiError('method_not_allowed', 'This MCP server is stateless: send JSON-RPC messages with POST.'), requestId, { Allow: 'POST' });
    const holder = await authenticate(incoming);
    if (holder === 'missing') return unauthorized(requestId, selection);
    if (holder === 'invalid') return unauthorized(requestId, selection, { code: 'invalid_token', description: 'The access token is unknown, expired, revoked or for another resource.' });
    if (holder instanceof ApiError) return jsonResponse({ error: { code: holder.code, message: holder.message, requestId } }, holder.status);
    const request = await bounded(incoming, BODY_LIMITS.mcp);
    const text = await request.text();
    // Parsed once for the era check and the serving; a body that is not JSON goes to the SDK as it is, which answers a parse error.
    const parsedBody = parseJson(text);
    // A call the direct path takes names a 2025 version and carries no envelope claim: the SDK's
    // era predicate would call it legacy, so it is not asked (its classification cost 15 µs).
    const direct = directToolCallOf(request.headers, parsedBody);
    if (direct) return new Response(resultResponseBody(direct.id, await answerToolCall(holder, selection, requestId, direct.params)), { status: 200, headers: { 'content-type': 'application/json' } });
    // The SDK reads the parsed body and never the stream, so the request goes to it as it is; only
    // a body that is not JSON is handed over again as text (a native Request per call cost 4 % of an MCP call's CPU).
    const forSdk = parsedBody === undefined ? new Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal }) : request;
    const authInfo = { token: holder.token, clientId: holder.principal.clientId, scopes: [...holder.scopes], extra: { bound: { holder, selection, requestId } satisfies BoundRequest } };
    let answered: globalThis.Response;
    if (await isLegacyRequest(forSdk, parsedBody)) {
      // 2025-era clients: the stateless idiom with JSON answers (the SDK's own legacy leg streams SSE, which costs more and buys nothing here).
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await buildServer(holder, selection, requestId).connect(transport);
      answered = await transport.handleRequest(forSdk, { parsedBody, authInfo });
    } else {
      answered = await sdkHandler.fetch(forSdk, { parsedBody, authInfo });
    }
    // A stream (2026-07-28 `subscriptions/listen`) passes through. Otherwise the SDK's native
    // Response, whose body node:http would write in many small writes, becomes one buffered body
    // (our Response): one write. Not compressed: the answers are never cached and gzip of the
    // doubled JSON (text + structured) cost more than it saved.
    if (answered.headers.get('content-type')?.startsWith('text/event-stream')) return answered;
    return new Response(answered.body ? await answered.arrayBuffer() : null, { status: answered.status, headers: answered.headers });
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
      return jsonResponse({
        resource: deps.authorizationServer.resource(),
        authorization_servers: [deps.authorizationServer.issuer()],
        scopes_supported: RESOURCE_SCOPES,
        bearer_methods_supported: ['header'],
        resource_name: 'Signalboard',
        resource_documentation: `${deps.authorizationServer.issuer()}/api/v1/docs`,
      }, 200, { 'Access-Control-Allow-Origin': '*' });
    },
    /** /mcp and its toolset URLs (`subPath` is what follows /mcp: '', '/readonly', '/x/reports,answers', …). */
    async handle(incoming: Request, requestId: string, subPath = ''): Promise<Response> {
      let selection: ToolSelection | null;
      try {
        selection = toolSelectionOf(subPath, incoming.headers);
      } catch (error) {
        return errorResponse(error as ApiError, requestId);
      }
      if (!selection) return errorResponse(new ApiError('not_found', 'No such MCP URL: use /mcp, /mcp/readonly or /mcp/x/<toolset>[,<toolset>…][/readonly].'), requestId);
      const origin = incoming.headers.get('origin');
      // The transport rules: a browser's foreign Origin is refused (DNS rebinding, cross-site
      // calls) unless it is an allowed MCP client's, which gets CORS with its bearer token only.
      const allowed = origin !== null && deps.allowedOrigins.includes(origin);
      if (origin !== null && origin !== deps.authorizationServer.issuer() && !allowed) return errorResponse(new ApiError('forbidden', `Requests from ${origin.slice(0, 200)} are not allowed here.`), requestId);
      const response = await answer(incoming, requestId, selection);
      if (allowed) for (const [name, value] of Object.entries(corsHeaders(origin))) response.headers.set(name, value);
      return response;
    },
  };
}
