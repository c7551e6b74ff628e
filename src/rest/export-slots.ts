// Fair shares of the export pool. An export holds a database connection for as long as its
// client reads, so a few held exports would otherwise take every connection of the instance:
// a workspace may stream fewer exports at once than the pool has (another workspace always
// gets one), and one API key fewer still. Counted in the process, like the pool they share: three
// keyed shares (http/keyed-shares.ts), the key's, the workspace's and the instance's. A request
// over a share waits a moment in that share's line (holding a timer and its place; how many can
// wait is bounded by the rate limit), then is refused.
import { ApiError } from '../errors/index.js';
import { createKeyedShares, type KeyedShares, type Share } from '../http/keyed-shares.js';

export interface ExportShares {
  /** Exports streaming at once on the instance: the export pool's size. */
  instance: number;
  perWorkspace: number;
  perKey: number;
}

/** Who would exceed a share: the caller's key, its workspace, or the whole instance. */
export type ExportRefusal = 'key' | 'workspace' | 'instance';

export interface ExportSlot {
  /** Gives the share back; safe to call twice. */
  release(): void;
}

/** How long an export over its share waits for one to free before it is refused. */
export const SHARE_WAIT_MS = 2_000;

export function createExportSlots(shares: ExportShares) {
  // Every export takes its shares in this order, so two exports never wait on each other's.
  const order: readonly [ExportRefusal, KeyedShares][] = [
    ['key', createKeyedShares({ perKey: shares.perKey })],
    ['workspace', createKeyedShares({ perKey: shares.perWorkspace })],
    ['instance', createKeyedShares({ perKey: shares.instance })],
  ];
  return {
    shares,
    /**
     * A slot for one export of `keyId` in `workspaceId`, waiting in line up to SHARE_WAIT_MS in all
     * for its shares to free (exports run back to back, or overlapping a little, are served);
     * otherwise the share whose wait ran out.
     */
    async take(workspaceId: string, keyId: string): Promise<ExportSlot | ExportRefusal> {
      const deadline = performance.now() + SHARE_WAIT_MS;
      const ids: Record<ExportRefusal, string> = { key: keyId, workspace: workspaceId, instance: 'instance' };
      const held: Share[] = [];
      const release = () => {
        for (const share of held.splice(0)) share.release();
      };
      for (const [refusal, keyed] of order) {
        const share = keyed.take(ids[refusal]);
        held.push(share);
        if (!(await grantedWithin(share, deadline - performance.now()))) {
          release();
          return refusal;
        }
      }
      return { release };
    },
  };
}

/** Whether `share` is held within `waitMs`; a wait that runs out leaves its line. */
async function grantedWithin(share: Share, waitMs: number): Promise<boolean> {
  if (typeof share.granted === 'boolean') return share.granted;
  const timer = setTimeout(() => share.release(), Math.max(0, waitMs));
  const granted = await share.granted;
  clearTimeout(timer);
  return granted;
}

export type ExportSlots = ReturnType<typeof createExportSlots>;

/** Exports end at no time anyone can tell; a few seconds is when a retry has a fair chance. */
const EXPORT_RETRY_AFTER_SECONDS = 5;

/**
 * A share of the export pool for one export, or the refusal (503 when the instance is full, else 429) with Retry-After.
 */
export async function takeExportSlot(
  slots: ExportSlots,
  workspaceId: string,
  keyId: string,
  headers: Record<string, string>,
): Promise<ExportSlot> {
  const slot = await slots.take(workspaceId, keyId);
  if (typeof slot === 'object') return slot;
  const retry = { headers: { ...headers, 'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS) } };
  if (slot === 'instance')
    throw new ApiError(
      'unavailable',
      `Too many exports are streaming on this instance; retry in ${EXPORT_RETRY_AFTER_SECONDS} s.`,
      retry,
    );
  const [holder, share] =
    slot === 'key' ? ['This API key', slots.shares.perKey] : ['This workspace', slots.shares.perWorkspace];
  throw new ApiError(
    'rate_limited',
    `${holder} already streams ${share} export${share === 1 ? '' : 's'} at once (its limit); retry when one ends.`,
    retry,
  );
}
