// How many requests of one workspace run at once on this instance. The token bucket counts
// requests, not the work they cause: a workspace could fill the instance with requests it may
// send (sixty 16 MB answers at once, each built and held in memory) and every other tenant would
// wait. A request takes its workspace's share when its principal is admitted (every door:
// v1 keys, /graphql keys and sessions, MCP tokens; auth/admission.ts) and gives it back once,
// when its response has been sent or its client went away (app.ts `Connection.ended`).
import { AsyncLocalStorage } from 'node:async_hooks';

/** The seconds a refused request is told to wait: requests end in well under that. */
export const CONCURRENCY_RETRY_AFTER_SECONDS = 1;

interface RequestShare {
  workspaceId: string | null;
  released: boolean;
}

export function createWorkspaceConcurrency(maxPerWorkspace: number) {
  const inFlight = new Map<string, number>();
  // The share of the request being handled, found by admission wherever the door runs it.
  const current = new AsyncLocalStorage<RequestShare>();

  function release(share: RequestShare) {
    if (share.released) return;
    share.released = true;
    if (share.workspaceId === null) return;
    const count = inFlight.get(share.workspaceId)! - 1;
    if (count) inFlight.set(share.workspaceId, count);
    else inFlight.delete(share.workspaceId);
  }

  return {
    maxPerWorkspace,
    /** Handles one request in its own share; `release` gives the share back (once, however often called). */
    track<T>(handle: () => Promise<T>): { result: Promise<T>; release(): void; workspaceId(): string | null } {
      const share: RequestShare = { workspaceId: null, released: false };
      return { result: current.run(share, handle), release: () => release(share), workspaceId: () => share.workspaceId };
    },
    /**
     * Counts the running request against `workspaceId`; false when the workspace already has its
     * most in flight. A request counts once, however many times it is admitted (an MCP batch).
     * Outside a tracked request (or after it ended) nothing is counted.
     */
    enter(workspaceId: string): boolean {
      const share = current.getStore();
      if (!share || share.released || share.workspaceId !== null) return true;
      const count = inFlight.get(workspaceId) ?? 0;
      if (count >= maxPerWorkspace) return false;
      inFlight.set(workspaceId, count + 1);
      share.workspaceId = workspaceId;
      return true;
    },
  };
}

export type WorkspaceConcurrency = ReturnType<typeof createWorkspaceConcurrency>;
