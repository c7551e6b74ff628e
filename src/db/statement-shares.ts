// How many statements of one workspace run at once on the read pool. The cap on requests in
// flight (auth/workspace-concurrency.ts) counts requests, but one request runs many statements
// side by side (a GraphQL query's aliases, an MCP batch): fifteen aliases of a heavy read held
// the whole pool, and another workspace's statements waited past the pool's connection timeout
// (503). Past its share, a workspace's statements wait in a queue of its own, never in the
// pool's, so the pool always has connections for the other tenants.

export interface StatementShares {
  /** The statements one workspace may run at once (DATABASE_STATEMENTS_PER_WORKSPACE). */
  readonly perWorkspace: number;
  /** Runs `statement` once `workspaceId` has a free share, in the order its statements asked. */
  run<T>(workspaceId: string, statement: () => Promise<T>): Promise<T>;
}

export function createStatementShares(perWorkspace: number): StatementShares {
  const shares = new Map<string, { running: number; waiting: (() => void)[] }>();
  return {
    perWorkspace,
    async run(workspaceId, statement) {
      let share = shares.get(workspaceId);
      if (!share) shares.set(workspaceId, (share = { running: 0, waiting: [] }));
      if (share.running < perWorkspace) share.running++;
      else await new Promise<void>((resolve) => share!.waiting.push(resolve));
      try {
        return await statement();
      } finally {
        // A waiting statement takes the share over as it is; the last one out forgets the workspace.
        const next = share.waiting.shift();
        if (next) next();
        else if (--share.running === 0) shares.delete(workspaceId);
      }
    },
  };
}
