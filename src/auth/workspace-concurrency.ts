// How many requests of one workspace run at once on this instance. The token bucket counts
// requests, not the work they cause: a workspace could fill the instance with requests it may
// send (sixty 16 MB answers at once, each built and held in memory) and every other tenant would
// wait. A request takes its workspace's share when its principal is admitted (every door:
// v1 keys, /graphql keys and sessions, MCP tokens; auth/admission.ts) and gives it back once,
// when its response has been sent or its client went away (app.ts `Connection.ended`).
//
// Past the share a request waits its turn in its workspace's own line (bounded in length and in
// wait, http/keyed-shares.ts), so a client that sends its bucket's worth at once is answered, a
// little later, instead of mostly refused; a client that leaves while waiting leaves the line.
// A workspace has two lanes, each with its own share and line: its automation (API keys, MCP
// connections) and its people (web-app sessions), so a workspace's busy scripts never make its
// people wait or be refused — the same split as its buckets.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createKeyedShares, type Share } from '../http/keyed-shares.js';

/** The seconds a refused request is told to wait: requests end in well under that. */
export const CONCURRENCY_RETRY_AFTER_SECONDS = 1;

export type Lane = 'automation' | 'people';

export interface ConcurrencyLimits {
  /** Requests of one workspace running at once per lane (WORKSPACE_MAX_CONCURRENT_REQUESTS). */
  perWorkspace: number;
  /** Requests of one workspace that may wait per lane (WORKSPACE_MAX_WAITING_REQUESTS). */
  maxWaiting: number;
  /** How long one may wait (WORKSPACE_MAX_WAIT_MS). */
  maxWaitMs: number;
}

/** One request's place: its lane's share once admission counted it, given back once. */
class RequestShare<T> {
  workspace: string | null = null;
  share: Share | null = null;
  released = false;
  result!: Promise<T>;
  /** A property, not a method: app.ts passes it on as a callback. */
  readonly release = () => {
    if (this.released) return;
    this.released = true;
    this.share?.release();
  };
  workspaceId(): string | null {
    return this.workspace;
  }
}

export function createWorkspaceConcurrency(limits: ConcurrencyLimits) {
  const lane = () =>
    createKeyedShares({ perKey: limits.perWorkspace, maxWaiting: limits.maxWaiting, maxWaitMs: limits.maxWaitMs });
  const lanes = { automation: lane(), people: lane() };
  // The share of the request being handled, found by admission wherever the door runs it.
  const current = new AsyncLocalStorage<RequestShare<unknown>>();

  return {
    limits,
    /** Handles one request in its own share; `release` gives the share back (once, however often called). */
    track<T>(handle: () => Promise<T>): { result: Promise<T>; release(): void; workspaceId(): string | null } {
      const request = new RequestShare<T>();
      request.result = current.run(request, handle);
      return request;
    },
    /**
     * Counts the running request against `workspaceId`'s lane: `true` at once while the lane has
     * a free share (the common path: nothing to await), `false` when its line is full, else a
     * promise of the outcome of its wait (`false`: the wait ran out, or the request ended first).
     * A request counts once, however many times it is admitted (an MCP batch: its later calls get
     * the first one's outcome). Outside a tracked request (or after it ended) nothing is counted.
     */
    enter(workspaceId: string, lane: Lane): boolean | Promise<boolean> {
      const request = current.getStore();
      if (!request || request.released) return true;
      if (request.share) return request.share.granted;
      const share = lanes[lane].take(workspaceId);
      if (share.granted === false) return false;
      request.share = share;
      request.workspace = workspaceId;
      return share.granted;
    },
    /** Requests running and waiting per lane, over every workspace (the metrics' gauges). */
    totals(): Record<Lane, Readonly<{ holding: number; waiting: number }>> {
      return { automation: lanes.automation.totals(), people: lanes.people.totals() };
    },
  };
}

export type WorkspaceConcurrency = ReturnType<typeof createWorkspaceConcurrency>;
