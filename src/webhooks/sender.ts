// One HTTP attempt: POST with the signed headers, no redirects followed (http.request never
// follows them), a hard timeout, the response body read and dropped. The target is checked
// again here, before and during connect.
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, TargetRefused, urlRefusal, type TargetPolicy } from '../http/outbound-guard.js';
import { outgoingTraceHeaders } from '../observability/tracing.js';

export interface AttemptResult {
  status: number | null;
  latencyMs: number;
  retryAfter: string | null;
  error: string | null;
}

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult>;
  close(): void;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/** The resolver's failures: a name that resolves to nothing is told like one that resolves to a private address. */
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENODATA']);

export function createSender(options: { policy: TargetPolicy; timeoutMs: number; maxSockets: number }): Sender {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets,
    lookup: guardedLookup(options.policy),
  } as http.AgentOptions;
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  return {
    send(url, headers, body) {
      const started = performance.now();
      const finish = (result: Omit<AttemptResult, 'latencyMs'>): AttemptResult => ({
        ...result,
        latencyMs: Math.round(performance.now() - started),
      });
      const refusal = urlRefusal(url, options.policy);
      if (refusal)
        return Promise.resolve(finish({ status: null, retryAfter: null, error: `target refused: ${refusal}` }));
      const target = new URL(url);
      const transport = target.protocol === 'https:' ? https : http;
      return new Promise((resolve) => {
        let settled = false;
        const settle = (result: Omit<AttemptResult, 'latencyMs'>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(finish(result));
        };
        const request = transport.request(
          target,
          {
            method: 'POST',
            agent: agents[target.protocol as 'http:' | 'https:'],
            // traceparent when tracing: the receiver can join the attempt to its trace.
            headers: {
              ...headers,
              ...outgoingTraceHeaders(),
              'content-length': String(Buffer.byteLength(body)),
              'user-agent': 'Signalboard-Webhooks/1',
            },
          },
          (response) => {
            let received = 0;
            response.on('data', (chunk: Buffer) => {
              received += chunk.length;
              if (received > MAX_RESPONSE_BYTES) response.destroy();
            });
            const done = () =>
              settle({
                status: response.statusCode ?? null,
                retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
                error: null,
              });
            response.on('end', done);
            response.on('close', done);
            response.on('error', done);
          },
        );
        const timer = setTimeout(() => {
          request.destroy();
          settle({ status: null, retryAfter: null, error: `timed out after ${options.timeoutMs} ms` });
        }, options.timeoutMs);
        request.on('error', (error) => {
          const { code } = error as NodeJS.ErrnoException;
          // The tenant reads this: what an internal name resolves to, or that it exists at all, is not told.
          const message =
            error instanceof TargetRefused || code === 'ETARGETREFUSED' || UNRESOLVED.has(code ?? '')
              ? `target refused: ${target.hostname} does not resolve to a public address`
              : `${code ?? 'error'}: ${error.message}`;
          settle({ status: null, retryAfter: null, error: message });
        });
        request.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
