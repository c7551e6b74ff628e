// A 2025-era `tools/call` answered without a per-request SDK server. Each call through the SDK
// builds a Server and a transport and checks the message with zod several times over, which cost
// more than the whole v1 request for one answer (docs/decisions/mcp-transport-costs.md). Only a
// message the SDK would serve
// exactly so is taken here — a POST the transport accepts (Accept, Content-Type, a supported
// protocol version header), one JSON-RPC request of this one method whose params hold nothing
// but the tool's name, its arguments and tracing `_meta` — and its answer is the SDK's, byte for
// byte (test/mcp/direct-tool-calls.test.ts holds the two paths equal). Anything else, and every
// error of the protocol itself, stays with the SDK.
import { isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

export interface DirectToolCall {
  id: string | number;
  params: ToolCallParams;
}

export interface ToolCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const only = (object: Record<string, unknown>, keys: readonly string[]) =>
  Object.keys(object).every((key) => keys.includes(key));

// `_meta` keys whose meaning is ours alone (trace context) or nothing here (we send no progress).
const PLAIN_META_KEYS = ['progressToken', 'traceparent', 'tracestate'] as const;

/** The call, when `body` is one plain stateless 2025-era `tools/call` the SDK would serve; otherwise null. */
export function directToolCallOf(headers: Headers, body: unknown): DirectToolCall | null {
  const version = headers.get('mcp-protocol-version');
  if (version === null || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  const accept = headers.get('accept');
  if (
    !accept?.includes('application/json') ||
    !accept.includes('text/event-stream') ||
    !isJsonContentType(headers.get('content-type'))
  )
    return null;
  if (
    !isPlainObject(body) ||
    !only(body, ['jsonrpc', 'id', 'method', 'params']) ||
    body.jsonrpc !== '2.0' ||
    body.method !== 'tools/call'
  )
    return null;
  const { id, params } = body;
  if (
    !(typeof id === 'string' || Number.isSafeInteger(id)) ||
    !isPlainObject(params) ||
    !only(params, ['name', 'arguments', '_meta'])
  )
    return null;
  if (typeof params.name !== 'string' || (params.arguments !== undefined && !isPlainObject(params.arguments)))
    return null;
  if (params._meta !== undefined && !(isPlainObject(params._meta) && only(params._meta, PLAIN_META_KEYS))) return null;
  return { id: id as string | number, params: params as unknown as ToolCallParams };
}
