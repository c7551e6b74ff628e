// How many ingests run at once: INGEST_MAX_CONCURRENT per instance, taken before a body is read,
// and INGEST_MAX_CONCURRENT_PER_WORKSPACE of them for any one workspace, taken when a body's
// lines first name one of its projects or clients (the token is the platform's, so a workspace is
// known only then). Past a workspace's share the ingest is refused at once rather than made to
// wait: a body may span workspaces, and two waiting on each other's would never end. Counted in
// the process, like the memory they bound.
import { ApiError } from '../errors/index.js';

export const INGEST_RETRY_AFTER_SECONDS = 2;

const busy = (holder: string, running: number) =>
  new ApiError(
    'rate_limited',
    `${holder} already runs ${running} ingest${running === 1 ? '' : 's'} (its limit); retry in ${INGEST_RETRY_AFTER_SECONDS} s.`,
    {
      headers: { 'Retry-After': String(INGEST_RETRY_AFTER_SECONDS) },
    },
  );

export interface IngestSlot {
  /** Counts the ingest against `workspaceId`'s share (once per workspace), or throws 429 past it. */
  join(workspaceId: string): void;
  /** Gives every share back. */
  release(): void;
}

export function createIngestShares(shares: { instance: number; perWorkspace: number }) {
  let running = 0;
  const byWorkspace = new Map<string, number>();
  return {
    /** A slot of the instance, or the 429 to answer when all are taken. */
    take(): IngestSlot | ApiError {
      if (running >= shares.instance) return busy('This instance', running);
      running++;
      const joined = new Set<string>();
      return {
        join(workspaceId) {
          if (joined.has(workspaceId)) return;
          const count = byWorkspace.get(workspaceId) ?? 0;
          if (count >= shares.perWorkspace) throw busy(`Workspace ${workspaceId}`, count);
          byWorkspace.set(workspaceId, count + 1);
          joined.add(workspaceId);
        },
        release() {
          running--;
          for (const workspaceId of joined) {
            const count = byWorkspace.get(workspaceId)! - 1;
            if (count) byWorkspace.set(workspaceId, count);
            else byWorkspace.delete(workspaceId);
          }
          joined.clear();
        },
      };
    },
  };
}
