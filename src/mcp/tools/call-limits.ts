// What one HTTP request to /mcp may spend. Every tool call (and resource read) spends a token
// of the same buckets as a v1 request — the connection's own and its workspace's — so an MCP
// client gets no more of the service than an API key does; a JSON-RPC batch (messages.ts) spends
// one per call, and its answers share the cap on one answer. A refused single call is an HTTP
// 429 with Retry-After; a call refused inside a batch is a tool error saying when to retry,
// beside its neighbours' answers.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Admitted } from '../../auth/index.js';
import { ApiError } from '../../errors/index.js';
import { jsonResponse } from '../../http/responses.js';
import { toolError } from './tool-results.js';

/** What the calls of one HTTP request spent: their admission, the last RateLimit fields, a batch's bytes. */
export interface CallLedger {
  /** Spends one token for a call; the refusal (rate limit, store down) when there is none. */
  admit(): Promise<ApiError | null>;
  /**
   * The result as it may be answered: inside a batch, a tool error once the batch's answers would pass
   * the cap on one answer.
   */
  bounded(result: CallToolResult): CallToolResult;
  /** The first refusal of this request's calls. */
  readonly refusal: ApiError | null;
  /** The RateLimit fields of the last admitted call. */
  readonly headers: Record<string, string>;
}

/** Characters a result adds to the answer: its text, and the same again for its structured copy. */
const sizeOf = (result: CallToolResult) => {
  const text = result.content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
  return result.structuredContent ? 2 * text : text;
};

/**
 * `batchMaxChars`: for a batch, the cap on one JSON answer (RESPONSE_MAX_BYTES), which its
 * results share in the order they finish (one result alone is held to it where it is made).
 */
export function createCallLedger(meter: () => Promise<Admitted>, batchMaxChars: number | null): CallLedger {
  let refusal: ApiError | null = null;
  let headers: Record<string, string> = {};
  let left = batchMaxChars ?? Infinity;
  return {
    bounded(result) {
      const size = sizeOf(result);
      if (batchMaxChars === null || size <= left) {
        left -= size;
        return result;
      }
      return toolError(
        new ApiError(
          'response_too_large',
          `This batch's answers would exceed ${Math.round(batchMaxChars / 1024 / 102.4) / 10} ` +
            `MB together; this call was left out. Send fewer calls per batch, or ask each for ` +
            `less.`,
        ),
      );
    },
    async admit() {
      try {
        headers = (await meter()).headers;
        return null;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        refusal ??= error;
        return error;
      }
    },
    get refusal() {
      return refusal;
    },
    get headers() {
      return headers;
    },
  };
}

/**
 * A single message's answer when its call was refused: the refusal's HTTP status (429, or 503
 * while the rate-limit store is down) and headers (Retry-After), with a JSON-RPC error that
 * says the same to clients that read only the body.
 */
export function refusedResponse(id: unknown, refusal: ApiError): ReturnType<typeof jsonResponse> {
  const validId = typeof id === 'string' || typeof id === 'number' ? id : null;
  return jsonResponse(
    {
      jsonrpc: '2.0',
      id: validId,
      error: {
        code: -32000,
        message: refusal.message,
        data: {
          code: refusal.code,
          ...(refusal.headers['Retry-After'] ? { retryAfterSeconds: Number(refusal.headers['Retry-After']) } : {}),
        },
      },
    },
    refusal.status,
    refusal.headers,
  );
}
