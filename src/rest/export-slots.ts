// Fair shares of the export pool. An export holds a database connection for as long as its
// client reads, so a few held exports would otherwise take every connection of the instance:
// a workspace may stream fewer exports at once than the pool has (another workspace always
// gets one), and one API key fewer still. Counted in the process, like the pool they share.

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

export function createExportSlots(shares: ExportShares) {
  let streaming = 0;
  const byWorkspace = new Map<string, number>();
  const byKey = new Map<string, number>();
  const add = (counts: Map<string, number>, id: string, delta: number) => {
    const count = (counts.get(id) ?? 0) + delta;
    if (count) counts.set(id, count);
    else counts.delete(id);
  };

  return {
    shares,
    /** A slot for one export of `keyId` in `workspaceId`, or which share it would exceed. */
    take(workspaceId: string, keyId: string): ExportSlot | ExportRefusal {
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
        },
      };
    },
  };
}

export type ExportSlots = ReturnType<typeof createExportSlots>;
