// How many statements of one workspace run at once on the read pool. The cap on requests in
// flight (auth/workspace-concurrency.ts) counts requests, but one request runs many statements
// side by side (a GraphQL query's aliases, an MCP batch): fifteen aliases of a heavy read held
// the whole pool, and another workspace's statements waited past the pool's connection timeout
// (503). Past its share, a workspace's statements wait in a queue of its own, never in the
// pool's, so the pool always has connections for the other tenants. The queue has no bound of its
// own: its statements belong to requests already admitted.
import { createKeyedShares, type Share } from '../http/keyed-shares.js';

export interface StatementShares {
  /** The statements one workspace may run at once (DATABASE_STATEMENTS_PER_WORKSPACE). */
  readonly perWorkspace: number;
  /** Runs `statement` once `workspaceId` has a free share, in the order its statements asked. */
  run<T>(workspaceId: string, statement: () => Promise<T>): Promise<T>;
}

export function createStatementShares(perWorkspace: number): StatementShares {
  const shares = createKeyedShares({ perKey: perWorkspace });
  return {
    perWorkspace,
    run(workspaceId, statement) {
      const share = shares.take(workspaceId);
      return share.granted === true ? runHeld(share, statement) : runAfterWait(share, statement);
    },
  };
}

/**
 * Runs `statement` in a share held already, giving it back once the statement settled. Chained
 * on the statement's promise, not awaited in an async function: a statement with a free share
 * (nearly all of them) costs one `then` more than the statement alone.
 */
function runHeld<T>(share: Share, statement: () => Promise<T>): Promise<T> {
  let running: Promise<T>;
  try {
    running = statement();
  } catch (error) {
    share.release();
    return Promise.reject(error);
  }
  return running.then(
    (value) => (share.release(), value),
    (error: unknown) => {
      share.release();
      throw error;
    },
  );
}

function runAfterWait<T>(share: Share, statement: () => Promise<T>): Promise<T> {
  return (share.granted as Promise<unknown>).then(() => runHeld(share, statement));
}
