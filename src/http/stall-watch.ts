// A client that stops reading keeps what is written for it: the unsent bytes of its answer and,
// for a streamed answer, what the stream holds open behind them (an export's cursor and
// database connection). Every body is written with back-pressure (the node adapter writes a
// string or byte body in one write and pipes a stream, which waits for 'drain'), so a
// non-reading client holds at most one answer's bytes, or a streamed answer's buffers; this
// watch bounds how long: a response with bytes waiting and none taken for `stallMs` is
// destroyed, which closes its connection, and its body's 'close' frees the rest. It bounds how
// much too, per workspace and per instance: when one workspace's responses that took nothing
// since the last sweep hold more than `unsentWorkspaceMaxBytes`, its largest are cut at once; when
// all of them hold more than `unsentMaxBytes`, the workspace holding the most loses its largest
// first, so one tenant's non-reading clients cannot get another's slow reader cut.
//
// One sweep per server on an unreferenced interval, not a timer per response (timers on the
// request path cost every scavenge: docs/decisions/request-path-allocations.md).
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface Progress {
  /** Bytes whose writes completed (the kernel took them). */
  accepted: number;
  /** Bytes libuv still holds for the socket: a large write it has only partly sent shrinks this first. */
  queued: number;
  /** When the response last moved, or last had nothing waiting (ms, performance.now()). */
  since: number;
}

/** Whose answer a response is, once its request was admitted: kept on the response itself. */
const OWNER = Symbol('workspace of the answer');
type Attributed = ServerResponse & { [OWNER]?: string };

/** The socket's write progress; any change counts as the client taking bytes. */
function progressOf(socket: Socket): Pick<Progress, 'accepted' | 'queued'> {
  // writeQueueSize is libuv's count of bytes not yet written, on the socket's handle: the one
  // signal of progress inside a single large write (the ~MB string bodies of big answers).
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle;
  return { accepted: socket.bytesWritten - socket.writableLength, queued: handle?.writeQueueSize ?? 0 };
}

export interface StallLimits {
  /** A response with bytes waiting and none taken for this long is cut (RESPONSE_STALL_SECONDS). */
  stallMs: number;
  /**
   * Bytes all responses that took nothing since the last sweep may hold together
   * (RESPONSE_UNSENT_MAX_BYTES): past it the largest are cut first, before their stall time.
   */
  unsentMaxBytes: number;
  /** The same bound for one workspace's responses (RESPONSE_UNSENT_WORKSPACE_MAX_BYTES). */
  unsentWorkspaceMaxBytes: number;
}

export interface StalledResponse<T> {
  response: T;
  /** Whose answer it is; null before admission (pages, refusals): then it counts alone. */
  workspaceId: string | null;
  unsent: number;
}

/**
 * The stalled responses to cut so that each workspace holds at most `unsentWorkspaceMaxBytes` and
 * all together at most `unsentMaxBytes`: a workspace over its own bound loses its largest first;
 * over the instance's, the workspace holding the most loses its largest, until the rest fit.
 */
export function responsesToCut<T>(
  stalled: readonly StalledResponse<T>[],
  { unsentMaxBytes, unsentWorkspaceMaxBytes }: Omit<StallLimits, 'stallMs'>,
): T[] {
  const holders = new Map<unknown, { held: number; largestFirst: StalledResponse<T>[] }>();
  for (const entry of stalled) {
    // A response nobody was admitted for is a holder of its own.
    const holderKey = entry.workspaceId ?? entry;
    const holder = holders.get(holderKey) ?? { held: 0, largestFirst: [] };
    holder.held += entry.unsent;
    holder.largestFirst.push(entry);
    holders.set(holderKey, holder);
  }
  const cut: T[] = [];
  const cutLargest = (holder: { held: number; largestFirst: StalledResponse<T>[] }) => {
    const largest = holder.largestFirst.shift()!;
    holder.held -= largest.unsent;
    cut.push(largest.response);
    return largest.unsent;
  };
  let total = 0;
  for (const holder of holders.values()) {
    holder.largestFirst.sort((a, b) => b.unsent - a.unsent);
    while (holder.held > unsentWorkspaceMaxBytes) cutLargest(holder);
    total += holder.held;
  }
  while (total > unsentMaxBytes) {
    const most = [...holders.values()].reduce((a, b) => (b.held > a.held ? b : a));
    total -= cutLargest(most);
  }
  return cut;
}

/** The response a connection is writing now: node:http's own pointer, set while the response holds the socket. */
const writingNow = (socket: Socket) =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;

/**
 * Watches every response of `server` through its connection: the answer a connection is writing
 * and how far its bytes got; the request handler calls `attribute` once a response's workspace is
 * known. Nothing long-lived holds a response: one kept in a map, even for the milliseconds it
 * runs, was promoted with everything it references at each scavenge under load
 * (docs/decisions/request-path-allocations.md).
 */
export function watchStalls(server: Server, { stallMs, ...budgets }: StallLimits, onCut: () => void = () => {}) {
  const connections = new Map<Socket, Progress>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { accepted: -1, queued: -1, since: performance.now() });
    socket.once('close', () => connections.delete(socket));
  });
  const cut = (res: ServerResponse) => {
    onCut();
    res.destroy();
  };
  const sweep = () => {
    const now = performance.now();
    const stalled: StalledResponse<ServerResponse>[] = [];
    for (const [socket, last] of connections) {
      const res = writingNow(socket);
      const current = progressOf(socket);
      // Nothing waiting (no answer, still computing, or everything sent): not a stall. A new answer's
      // first bytes are progress, so its stall time counts from them.
      if (!res || (res.writableLength === 0 && current.queued === 0)) {
        last.since = now;
        continue;
      }
      if (current.accepted !== last.accepted || current.queued !== last.queued) {
        Object.assign(last, current, { since: now });
        continue;
      }
      if (now - last.since >= stallMs) cut(res);
      else stalled.push({ response: res, workspaceId: (res as Attributed)[OWNER] ?? null, unsent: res.writableLength });
    }
    for (const res of responsesToCut(stalled, budgets)) cut(res);
  };
  const timer = setInterval(sweep, Math.min(1_000, stallMs / 4));
  timer.unref();
  server.once('close', () => clearInterval(timer));
  return {
    attribute(res: ServerResponse, workspaceId: string) {
      (res as Attributed)[OWNER] = workspaceId;
    },
  };
}
