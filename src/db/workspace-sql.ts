// Hot read paths use plain SQL through pg: Prisma's per-query cost dominates them (see
// test/bench/README.md). Isolation stays in the data layer: a repository is created for one
// workspace and every statement it runs filters by that workspace_id as parameter $1.
import type pg from 'pg';

export interface WorkspaceSql {
  workspaceId: string;
  /** Runs a named (prepared) statement whose $1 is the bound workspace id. */
  rows<T extends pg.QueryResultRow>(name: string, text: string, values?: unknown[]): Promise<T[]>;
}

/** Statement texts already checked for the workspace filter; each is checked once per process. */
const scopedStatements = new Set<string>();

export function workspaceSql(pool: pg.Pool, workspaceId: string): WorkspaceSql {
  return {
    workspaceId,
    async rows(name, text, values = []) {
      if (!scopedStatements.has(text)) {
        if (!/workspace_id = \$1\b/.test(text)) throw new Error(`statement ${name} is not scoped by workspace_id = $1`);
        scopedStatements.add(text);
      }
      return (await pool.query({ name, text, values: [workspaceId, ...values] })).rows;
    },
  };
}
