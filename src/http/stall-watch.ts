// A client that stops reading keeps what is written for it: the unsent bytes of its answer and,
// for a streamed answer, what the stream holds open behind them (an export's cursor and
// database connection). Every body is written with back-pressure (the node adapter writes a
// string or byte body in one write and pipes a stream, which waits for 'drain'), so a
// non-reading client holds at most one answer's bytes, or a streamed answer's buffers; this
// watch bounds how long: a response with bytes waiting and none taken for `stallMs` is
// destroyed, which closes its connection, and its body's 'close' frees the rest. It bounds how
// much too: when the responses that took nothing since the last sweep hold more than
// `unsentMaxBytes` together, the largest are cut at once.
//
// One sweep per server on an unreferenced interval, not a timer per response (timers on the
// request path cost every scavenge: test/bench/README.md, "what survived the scavenges").
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
}

/** Watches every response of `server`; returns the function the request handler calls on each. */
export function watchStalls(server: Server, { stallMs, unsentMaxBytes }: StallLimits, onCut: () => void = () => {}): (res: ServerResponse) => void {
  const watched = new Map<ServerResponse, Progress>();
  const cut = (res: ServerResponse) => {
    watched.delete(res);
    onCut();
    res.destroy();
  };
  const sweep = () => {
    const now = performance.now();
    const stalled: { res: ServerResponse; unsent: number }[] = [];
    let unsentOfStalled = 0;
    for (const [res, last] of watched) {
      const socket = res.socket;
      if (!socket) continue;
      const current = progressOf(socket);
      // Nothing waiting (still computing, or everything sent): not a stall.
      if (res.writableLength === 0 && current.queued === 0) {
        last.since = now;
        continue;
      }
      if (current.accepted !== last.accepted || current.queued !== last.queued) {
        Object.assign(last, current, { since: now });
        continue;
      }
      if (now - last.since >= stallMs) cut(res);
      else {
        stalled.push({ res, unsent: res.writableLength });
        unsentOfStalled += res.writableLength;
      }
    }
    if (unsentOfStalled <= unsentMaxBytes) return;
    // Many clients not reading at once: the largest holders go first, until the rest fit.
    stalled.sort((a, b) => b.unsent - a.unsent);
    for (const { res, unsent } of stalled) {
      if (unsentOfStalled <= unsentMaxBytes) break;
      cut(res);
      unsentOfStalled -= unsent;
    }
  };
  const timer = setInterval(sweep, Math.min(1_000, stallMs / 4));
  timer.unref();
  server.once('close', () => clearInterval(timer));
  return (res) => {
    watched.set(res, { accepted: -1, queued: -1, since: performance.now() });
    res.once('close', () => watched.delete(res));
  };
}
