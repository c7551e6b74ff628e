// A fetch for calls the service makes to addresses it was given (identity providers, client
// metadata documents): every URL and every resolved address through the outbound guard, no
// redirects followed, a hard timeout over the whole exchange and a cap on the answer's size.
// Failures are OutboundError with the detail for the log; callers show people a generic line.
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, urlRefusal, type TargetPolicy } from './outbound-guard.js';
import { inSpan, outgoingTraceHeaders, SpanKind } from '../observability/tracing.js';

const safeHost = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid';
  }
};

export class OutboundError extends Error {}

export interface OutboundOptions {
  policy: TargetPolicy;
  timeoutMs: number;
  maxBytes: number;
}

export type OutboundFetch = (
  url: string | URL,
  init?: {
    method?: string;
    headers?: HeadersInit;
    body?: string | URLSearchParams | null;
    signal?: AbortSignal | null;
  },
) => Promise<Response>;

export function createOutboundFetch(options: OutboundOptions): OutboundFetch {
  const lookup = guardedLookup(options.policy);
  return (input, init = {}) =>
    inSpan(`${init.method ?? 'GET'} outbound`, { 'server.address': safeHost(String(input)) }, () => send(input, init), {
      kind: SpanKind.CLIENT,
    });

  function send(input: string | URL, init: Parameters<OutboundFetch>[1] = {}): Promise<Response> {
    const url = String(input);
    const refusal = urlRefusal(url, options.policy);
    if (refusal) return Promise.reject(new OutboundError(`refused ${url}: ${refusal}`));
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    const headers = { ...Object.fromEntries(new Headers(init.headers ?? {})), ...outgoingTraceHeaders() };
    const body = init.body == null ? null : String(init.body);
    if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      let response: http.IncomingMessage | undefined;
      // Every failure rejects here and closes the sockets without an error: an error handed to
      // destroy() after the answer began lands on a pooled socket that no longer listens for one.
      const fail = (error: OutboundError) => {
        clearTimeout(deadline);
        reject(error);
        response?.removeAllListeners('data');
        response?.destroy();
        request.destroy();
      };
      const request = transport.request(
        target,
        { method: init.method ?? 'GET', headers, lookup: lookup as never, timeout: options.timeoutMs },
        (answer) => {
          response = answer;
          const chunks: Buffer[] = [];
          let received = 0;
          answer.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > options.maxBytes)
              return fail(new OutboundError(`the answer from ${target.host} is larger than ${options.maxBytes} bytes`));
            chunks.push(chunk);
          });
          answer.on('end', () => {
            clearTimeout(deadline);
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(answer.headers))
              if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
            const status = answer.statusCode ?? 502;
            resolve(
              new Response([101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks), {
                status,
                headers: responseHeaders,
              }),
            );
          });
          answer.on('error', (error) => fail(new OutboundError(`${target.host}: ${error.message}`)));
        },
      );
      const late = () => fail(new OutboundError(`${target.host} did not answer within ${options.timeoutMs} ms`));
      // The socket timeout covers idle gaps; this covers a peer that trickles bytes forever.
      const deadline = setTimeout(late, options.timeoutMs);
      request.on('timeout', late);
      request.on('error', (error) =>
        fail(error instanceof OutboundError ? error : new OutboundError(`${target.host}: ${error.message}`)),
      );
      init.signal?.addEventListener('abort', () => fail(new OutboundError('aborted')), { once: true });
      request.end(body ?? undefined);
    });
  }
}
