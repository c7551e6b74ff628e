// A real webhook receiver on loopback that verifies every delivery with the reference
// `standardwebhooks` package, as a customer's server would.
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { listenOnLoopback } from './loopback.js';

export interface Received {
  id: string;
  type: string;
  data: Record<string, any>;
  timestamp: string;
  signature: string;
  /** Which of the receiver's secrets verified it (by index), or null when none did. */
  verifiedBy: number | null;
  at: number;
  raw: { body: string; headers: Record<string, string> };
  /** The W3C traceparent the delivery carried, if any. */
  traceparent: string | null;
  /** The path it was posted to: endpoints of several workspaces may share one receiver. */
  path: string;
}

export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number };

export interface Receiver {
  url: string;
  received: Received[];
  /** The largest number of requests with the same webhook-id in flight at once. */
  maxConcurrentSameId: number;
  maxConcurrent: number;
  secrets: string[];
  answer: (request: Received, index: number) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => ({ status: 200 })): Promise<Receiver> {
  const inFlightById = new Map<string, number>();
  let inFlight = 0;
  const receiver: Receiver = {
    url: '',
    received: [],
    maxConcurrentSameId: 0,
    maxConcurrent: 0,
    secrets: [],
    answer,
    close: async () => {},
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      let verifiedBy: number | null = null;
      receiver.secrets.forEach((secret, index) => {
        if (verifiedBy !== null) return;
        try {
          new Webhook(secret).verify(body, headers);
          verifiedBy = index;
        } catch {
          // not this secret
        }
      });
      const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown>; timestamp: string };
      const entry: Received = {
        id: headers['webhook-id'],
        type: parsed.type,
        data: parsed.data,
        timestamp: parsed.timestamp,
        signature: headers['webhook-signature'],
        verifiedBy,
        at: Date.now(),
        raw: { body, headers },
        traceparent: (request.headers.traceparent as string | undefined) ?? null,
        path: request.url ?? '/',
      };
      const index = receiver.received.push(entry) - 1;
      inFlightById.set(entry.id, (inFlightById.get(entry.id) ?? 0) + 1);
      inFlight++;
      receiver.maxConcurrentSameId = Math.max(receiver.maxConcurrentSameId, inFlightById.get(entry.id)!);
      receiver.maxConcurrent = Math.max(receiver.maxConcurrent, inFlight);
      const reply = receiver.answer(entry, index);
      setTimeout(() => {
        inFlightById.set(entry.id, inFlightById.get(entry.id)! - 1);
        inFlight--;
        response.writeHead(reply.status, reply.headers ?? {}).end('ok');
      }, reply.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenOnLoopback(server);
  receiver.url = `${listening.baseUrl}/hook`;
  receiver.close = listening.close;
  return receiver;
}

export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
