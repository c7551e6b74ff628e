// The MCP server one request is answered by: bound to its token's person, workspace, consent
// and URL (a BoundRequest), with the methods it answers — tools, resources (the views and
// reports) and prompts. A server lives for one request, so nothing is kept between them.
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { listedTool } from '../tools/catalogue.js';
import type { BoundRequest, createToolCalls } from '../tools/tool-calls.js';
import type { ToolCallParams } from './direct-tool-calls.js';
import {
  APP_TOOLS,
  declaresViews,
  readUiResource,
  toolUiMeta,
  UI_RESOURCE_LIST,
  VIEWS_EXTENSION,
} from './app-views.js';
import { PROMPTS, renderPrompt } from './prompts.js';
import { reportResource, REPORT_RESOURCE_TEMPLATE } from './resources.js';

const INSTRUCTIONS =
  `Signalboard is a marketing reporting platform. Tools read one workspace's clients, ` +
  `reports and report data, and AI-visibility projects (how often AI assistants mention ` +
  `a brand and its competitors). Start with whoami and list_clients. Rates: visibility ` +
  `and shareOfVoice are 0..1, averagePosition 1 = first, sentiment -1..1, pooled per ` +
  `locale. Write tools exist only when the workspace's admin has switched write actions ` +
  `on.`;

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

export interface ServerParts {
  jsonSchemaValidator: AjvJsonSchemaValidator;
  toolCalls: ReturnType<typeof createToolCalls>;
}

export function buildServer(bound: BoundRequest, parts: ServerParts): Server {
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
      jsonSchemaValidator: parts.jsonSchemaValidator,
      cacheHints: CACHE_HINTS,
    },
  );
  answerTools(server, bound, parts.toolCalls);
  answerResources(server, bound, parts.toolCalls);
  answerPrompts(server);
  return server;
}

function answerTools(server: Server, bound: BoundRequest, toolCalls: ServerParts['toolCalls']) {
  server.setRequestHandler('tools/list', async () => {
    // 2026-07-28 requests carry the client's capabilities each; 2025-era ones said them at initialize.
    const views = bound.views || declaresViews(server.getClientCapabilities());
    return {
      tools: toolCalls
        .visibleTools(bound)
        .filter((tool) => views || !(tool.name in APP_TOOLS))
        .map((tool) => ({ ...listedTool(tool), ...(views ? toolUiMeta(tool.name) : {}) })),
    };
  });
  server.setRequestHandler('tools/call', (request) =>
    toolCalls.answerToolCall(bound, request.params as ToolCallParams),
  );
}

function answerResources(server: Server, bound: BoundRequest, toolCalls: ServerParts['toolCalls']) {
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
    const withReports = { ...bound.selection, toolsets: new Set([...bound.selection.toolsets, 'reports' as const]) };
    const contents = await reportResource(request.params.uri, (id) =>
      toolCalls.callTool({ ...bound, selection: withReports }, 'get_report', { id }),
    );
    if (!contents)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No resource ${request.params.uri} in this workspace.`);
    return { contents: [contents] };
  });
}

function answerPrompts(server: Server) {
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
}
