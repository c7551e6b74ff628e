// What a POST to /mcp carries, read once for every path that serves it: the body as text under
// the service's text rule, parsed, and refused as a whole where the transport says so — bytes
// that are not UTF-8, and a JSON-RPC batch outside the one revision that had them, or too large.
import type { ApiError } from '../../errors/index.js';
import { jsonResponse } from '../../http/responses.js';
import { utf8Text } from '../../http/text-input.js';

export const MCP_LIMITS = {
  /** JSON-RPC messages in one batch. */
  batchMessages: 20,
  /** Characters of a string JSON-RPC id: every answer echoes it, errors included (kept small). */
  idCharacters: 256,
} as const;

/** The protocol revisions whose Streamable HTTP POST may carry a JSON-RPC batch: 2025-06-18 removed them. */
export const BATCHING_REVISIONS: readonly string[] = ['2025-03-26'];
// Streamable HTTP: a request without MCP-Protocol-Version is taken as 2025-03-26.
const REVISION_WITHOUT_HEADER = '2025-03-26';

/** A message the transport cannot accept: 400 with a JSON-RPC error and no id, as the spec allows. */
const invalidRequest = (message: string) =>
  jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32600, message } }, 400);

const OPEN_BRACKET = 0x5b;
const isJsonWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * The messages of a body that is a JSON array, counted on its bytes: commas at the array's own
 * depth, outside strings (bytes over 0x7f occur only inside strings). Null for any other body.
 * A batch is refused on this count before it is decoded and parsed: a flood of oversized or
 * out-of-era batches cost the instance a 100-message parse each (bench:abuse).
 */
export function batchLength(bytes: Uint8Array): number | null {
  let index = 0;
  while (index < bytes.length && isJsonWhitespace(bytes[index]!)) index++;
  if (bytes[index] !== OPEN_BRACKET) return null;
  let depth = 0;
  let inString = false;
  let commas = 0;
  let empty = true;
  for (; index < bytes.length; index++) {
    const byte = bytes[index]!;
    if (inString) {
      if (byte === 0x5c) index++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === OPEN_BRACKET || byte === 0x7b) depth++;
    else if (byte === 0x5d || byte === 0x7d) depth--;
    else if (byte === 0x2c && depth === 1) commas++;
    if (depth >= 1 && !isJsonWhitespace(byte) && !(depth === 1 && byte === OPEN_BRACKET)) empty = false;
  }
  return empty ? 0 : commas + 1;
}

/** The refusal of a batch its revision does not have, or too large; null for anything else. */
function batchRefusal(headers: Headers, length: number | null): ReturnType<typeof jsonResponse> | null {
  if (length === null) return null;
  const revision = headers.get('mcp-protocol-version') ?? REVISION_WITHOUT_HEADER;
  if (!BATCHING_REVISIONS.includes(revision))
    return invalidRequest(
      `Invalid Request: JSON-RPC batches are not part of MCP ${revision.slice(0, 40)} (only ` +
        `${BATCHING_REVISIONS.join(', ')}); send one message per POST.`,
    );
  if (length > MCP_LIMITS.batchMessages)
    return invalidRequest(
      `Invalid Request: a batch holds at most ${MCP_LIMITS.batchMessages} messages; this one has ${length}.`,
    );
  return null;
}

/** A message the transport cannot parse: 400 with a JSON-RPC parse error. */
const parseError = (message: string) =>
  jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${message}` } }, 400);

const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The body as text and parsed (undefined when it is not JSON: the SDK answers that itself), or
 * the refusal: bytes that are not UTF-8 (never U+FFFD silently in an argument), a batch refused.
 */
export function readMessage(
  bytes: ArrayBuffer,
  headers: Headers,
): { text: string; parsedBody: unknown } | ReturnType<typeof jsonResponse> {
  const view = new Uint8Array(bytes);
  const refused = batchRefusal(headers, batchLength(view));
  if (refused) return refused;
  let text: string;
  try {
    text = utf8Text(view);
  } catch (error) {
    return parseError((error as ApiError).message);
  }
  const parsedBody = parseJson(text);
  const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
  if (
    messages.some(
      (message) =>
        typeof (message as { id?: unknown } | null)?.id === 'string' &&
        (message as { id: string }).id.length > MCP_LIMITS.idCharacters,
    )
  ) {
    return invalidRequest(`Invalid Request: a JSON-RPC id is at most ${MCP_LIMITS.idCharacters} characters.`);
  }
  return { text, parsedBody };
}
