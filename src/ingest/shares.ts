// How many ingests run at once: INGEST_MAX_CONCURRENT per instance, taken before a body is read,
// and INGEST_MAX_CONCURRENT_PER_WORKSPACE of them for any one workspace, taken when a body's
// lines first name one of its projects or clients (the token is the platform's, so a workspace is
// known only then). Past a workspace's share the ingest is refused at once rather than made to
// wait (keyed shares with no line): a body may span workspaces, and two waiting on each other's
// would never end. Counted in the process, like the memory they bound.
import { ApiError } from '../errors/index.js';
import { createKeyedShares, type Share } from '../http/keyed-shares.js';

export const INGEST_RETRY_AFTER_SECONDS = 2;

/** The instance's share is one key of its own shares. */
const INSTANCE = 'instance';

const busy = (holder: string, running: number) =>
  new ApiError(
    'rate_limited',
    `${holder} already runs ${running} ingest${running === 1 ? '' : 's'} (its limit); ` +
      `retry in ${INGEST_RETRY_AFTER_SECONDS} s.`,
    { headers: { 'Retry-After': String(INGEST_RETRY_AFTER_SECONDS) } },
  );

export interface IngestSlot {
  /** Counts the ingest against `workspaceId`'s share (once per workspace), or throws 429 past it. */
  join(workspaceId: string): void;
  /** Whether the body named a workspace yet (joined one). */
  readonly named: boolean;
  /** Gives every share back. */
  release(): void;
}

export function createIngestShares(shares: { instance: number; perWorkspace: number }) {
  const instance = createKeyedShares({ perKey: shares.instance, maxWaiting: 0 });
  const byWorkspace = createKeyedShares({ perKey: shares.perWorkspace, maxWaiting: 0 });
  return {
    /** A slot of the instance, or the 429 to answer when all are taken. */
    take(): IngestSlot | ApiError {
      const held = instance.take(INSTANCE);
      // Refused only when every share is held, so the count in the message is the limit.
      if (!held.granted) return busy('This instance', shares.instance);
      const joined = new Map<string, Share>();
      return {
        join(workspaceId) {
          if (joined.has(workspaceId)) return;
          const share = byWorkspace.take(workspaceId);
          if (!share.granted) throw busy(`Workspace ${workspaceId}`, shares.perWorkspace);
          joined.set(workspaceId, share);
        },
        get named() {
          return joined.size > 0;
        },
        release() {
          held.release();
          for (const share of joined.values()) share.release();
          joined.clear();
        },
      };
    },
  };
}
