// How the MCP connector answers an error over HTTP: the boundary's JSON envelope
// (doors/boundary.ts), with the request's own id. Every JSON error of /mcp and of the
// authorization server's own refusals goes through this one function. A tool's failure is a
// tool result instead (tools/tool-results.ts), a refused JSON-RPC message a JSON-RPC error
// (protocol/messages.ts), and the OAuth endpoints answer in OAuth's shape (oauth/).
import type { ApiError } from '../errors/index.js';
import { errorResponse } from '../doors/index.js';

export function mcpErrorResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}) {
  return errorResponse(error, requestId, headers);
}
