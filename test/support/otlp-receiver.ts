// An OTLP/HTTP trace receiver on loopback (a real endpoint, not a mock SDK): every span the
// service exports to `<url>/v1/traces`, decoded from OTLP's JSON encoding, in arrival order.
import http from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

export async function startOtlpReceiver() {
  const spans: OtlpSpan[] = [];
  const receiver = await listenOnLoopback(
    http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          const payload = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
          for (const resource of payload.resourceSpans)
            for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    }),
  );
  return { url: receiver.baseUrl, spans, close: receiver.close };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;

/** A trace or span id as hex (OTLP's JSON encoding may carry them as base64). */
export const hexId = (id: string) => (/^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));
