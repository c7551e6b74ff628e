// The catalogue: every tool by name — the read tools (graphql/operations/mcp/<toolset>/), the
// views' own tools (graphql/operations/views/, named in APP_TOOLS) and the write tools
// (write-tools/) — each carrying the toolset it declared, and how tools/list shows one.
import type { GraphQLSchema } from 'graphql';
import { VIEW_OPERATIONS_DIR, viewToolset } from '../protocol/app-views.js';
import { loadOperationTools } from './operation-tools.js';
import type { Tool } from './tool-calls.js';
import { WRITE_TOOLS, type WriteTool } from './write-tools.js';

export function loadCatalogue(schema: GraphQLSchema): Map<string, Tool> {
  const tools = [
    ...loadOperationTools(schema),
    ...loadOperationTools(schema, VIEW_OPERATIONS_DIR, viewToolset),
    ...WRITE_TOOLS,
  ];
  const catalogue = new Map<string, Tool>();
  for (const tool of tools) {
    if (catalogue.has(tool.name)) throw new Error(`two MCP tools are named ${tool.name}`);
    catalogue.set(tool.name, tool);
  }
  return catalogue;
}

// Tool annotations say only what differs from the spec's defaults (readOnlyHint false,
// destructiveHint true, idempotentHint false, openWorldHint true): every tools/list pays for them.
const READ_ANNOTATIONS = { readOnlyHint: true, openWorldHint: false };
const writeAnnotations = (tool: WriteTool) => ({
  ...(tool.destructive ? {} : { destructiveHint: false }),
  ...(tool.idempotent ? { idempotentHint: true } : {}),
  ...(tool.openWorld ? {} : { openWorldHint: false }),
});

/** A tool as tools/list shows it (without a view's `_meta`, which depends on the client). */
export const listedTool = (tool: Tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema as never,
  ...(tool.outputSchema ? { outputSchema: tool.outputSchema as never } : {}),
  annotations: 'write' in tool ? writeAnnotations(tool) : READ_ANNOTATIONS,
});
