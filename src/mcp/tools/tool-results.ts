// What a tool call returns, and how a result is written as a JSON-RPC response on the direct
// path (direct-tool-calls.ts). Members are in the order the SDK's encoding writes them, so both
// paths write the same bytes.
import type { CallToolResult } from '@modelcontextprotocol/server';

/** A tool's failure with the API's error code, as the model sees it: the boundary's tool error. */
export { toolErrorResult as toolError } from '../../doors/index.js';

// Results whose one text block is their structured content serialized (the spec's SHOULD, for
// clients that read only `content`): their data need not be serialized a second time.
const textIsStructuredContent = new WeakSet<CallToolResult>();

export function structured(data: Record<string, unknown>): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
  textIsStructuredContent.add(result);
  return result;
}

const [HEAD, MIDDLE] = [
  Buffer.from('{"result":{"content":[{"type":"text","text":'),
  Buffer.from('}],"structuredContent":'),
];

/**
 * The JSON-RPC response the SDK's transport writes for `result`, as UTF-8. A structured result's
 * data is serialized once and the response assembled from encoded parts, with `Buffer.from` as
 * for v1's bodies: one string of the whole is a rope of two-byte strings as soon as any text is
 * not Latin-1, slower to encode (docs/decisions/mcp-transport-costs.md).
 */
export function resultResponseBody(id: string | number, result: CallToolResult): Buffer<ArrayBuffer> {
  if (!textIsStructuredContent.has(result))
    return Buffer.from(JSON.stringify({ result, jsonrpc: '2.0', id })) as Buffer<ArrayBuffer>;
  const text = (result.content[0] as { text: string }).text;
  return Buffer.concat([
    HEAD,
    Buffer.from(JSON.stringify(text)),
    MIDDLE,
    Buffer.from(text),
    Buffer.from(`},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`),
  ]);
}
