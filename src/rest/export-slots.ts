// Fair shares of the export pool. An export holds a database connection for as long as its
// client reads, so a few held exports would otherwise take every connection of the instance:
// a workspace may stream fewer exports at once than the pool has (another workspace always
// gets one), and one API key fewer still. Counted in the process, like the pool they share. A
// request over a share waits a moment for one to free (a waiting request holds a timer, nothing
// else; how many can wait is bounded by the rate limit), then is refused.
import { ApiError } from '../errors/index.js';

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

/** How long an export over its share waits for one to free before it is refused (the pool's own wait was 2 s). */
export const SHARE_WAIT_MS = 2_000;

export function createExportSlots(shares: ExportShares) {
  let streaming = 0;
  const byWorkspace = new Map<string, number>();
  const byKey = new Map<string, number>();
  const add = (counts: Map<string, number>, id: string, delta: number) => {
    const count = (counts.get(id) ?? 0) + delta;
    if (count) counts.set(id, count);
    else counts.delete(id);
  };

  // Requests waiting for a share to free; every release wakes them to try again.
  const waiters = new Set<() => void>();
  const nextRelease = (waitMs: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      waiters.add(done);
    });

  function tryTake(workspaceId: string, keyId: string): ExportSlot | ExportRefusal {
    if ((byKey.get(keyId) ?? 0) >= shares.perKey) return 'key';
    if ((byWorkspace.get(workspaceId) ?? 0) >= shares.perWorkspace) return 'workspace';
    if (streaming >= shares.instance) return 'instance';
    streaming++;
    add(byWorkspace, workspaceId, 1);
    add(byKey, keyId, 1);
    let held = true;
    return {
      release() {
        if (!held) return;
        held = false;
        streaming--;
        add(byWorkspace, workspaceId, -1);
        add(byKey, keyId, -1);
        for (const wake of [...waiters]) wake();
      },
    };
  }

  return {
    shares,
    /**
     * A slot for one export of `keyId` in `workspaceId`, waiting up to SHARE_WAIT_MS for a share
     * to free (exports run back to back, or overlapping a little, are served); otherwise which
     * share is still taken.
     */
    async take(workspaceId: string, keyId: string): Promise<ExportSlot | ExportRefusal> {
      const deadline = performance.now() + SHARE_WAIT_MS;
      for (;;) {
        const outcome = tryTake(workspaceId, keyId);
        const remaining = deadline - performance.now();
        if (typeof outcome === 'object' || remaining <= 0) return outcome;
        await nextRelease(remaining);
      }
    },
  };
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
