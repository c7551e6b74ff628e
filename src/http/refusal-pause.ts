// A connection told to wait is not read again before its wait is over. A refusal (429 with
// Retry-After) still costs a parsed request, an admission and an answer; a client that ignores
// Retry-After and sends again at once, on a few keep-alive connections, kept an instance busy
// answering thousands of refusals a second while other tenants' requests queued behind them
// (bench:abuse). After such an answer its socket stops being read (TCP holds the next request
// back) until the Retry-After has passed, at most `maxPauseMs`; a client that waits as told
// notices nothing. One sweep for all paused sockets, not a timer each.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const SWEEP_MS = 100;

export function createRefusalPause(maxPauseMs: number) {
  const paused = new Map<Socket, number>();
  let sweep: NodeJS.Timeout | null = null;
  const resumeDue = () => {
    const now = performance.now();
    for (const [socket, resumeAt] of paused) {
      // A socket that closed meanwhile is forgotten here: no listener is added to it per pause.
      if (resumeAt > now && !socket.destroyed) continue;
      paused.delete(socket);
      if (!socket.destroyed) socket.resume();
    }
    if (!paused.size && sweep) {
      clearInterval(sweep);
      sweep = null;
    }
  };
  return {
    /**
     * Called once a response has been sent (its `socket` is detached by then): pauses the connection when the answer
     * told the client to wait.
     */
    afterResponse(res: ServerResponse, socket: Socket) {
      if (maxPauseMs === 0 || res.statusCode !== 429 || socket.destroyed) return;
      const retryAfterSeconds = Number(res.getHeader('retry-after'));
      if (!(retryAfterSeconds > 0)) return;
      socket.pause();
      paused.set(socket, performance.now() + Math.min(retryAfterSeconds * 1000, maxPauseMs));
      sweep ??= setInterval(resumeDue, SWEEP_MS).unref();
    },
  };
}
