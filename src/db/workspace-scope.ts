// The one door to tenant rows. A WorkspaceScope is created per request (or command) from the
// principal; every read of a tenant's rows runs a statement declared with its workspace
// binding (db/tenant-sql.ts) with the bound workspace as $1. Repositories and engines receive a
// scope, never a pool or an id found earlier, so a forgotten check in a resolver cannot leak
// another workspace's rows. Writes go through the admin command path
// (workspaces/admin-command.ts), which checks the actor's membership of the workspace it
// changes and scopes every statement of the change by that workspace.
import type pg from 'pg';
import type { TenantStatement } from './tenant-sql.js';
import { inSpan, SpanKind, tracing } from '../observability/tracing.js';

export interface WorkspaceScope {
  workspaceId: string;
  /** Runs a declared statement with the bound workspace as $1 and `values` as $2…. */
  rows<Row extends pg.QueryResultRow>(statement: TenantStatement<Row>, values?: readonly unknown[]): Promise<Row[]>;
}

export type WorkspaceScopeFactory = (workspaceId: string) => WorkspaceScope;

/** Scopes over `pool` (the read pool: a replica when configured). */
export function workspaceScopes(pool: pg.Pool): WorkspaceScopeFactory {
  return (workspaceId) => ({
    workspaceId,
    async rows<Row extends pg.QueryResultRow>(statement: TenantStatement<Row>, values: readonly unknown[] = []) {
      const query = statement.name ? { name: statement.name, text: statement.text, values: [workspaceId, ...values] } : { text: statement.text, values: [workspaceId, ...values] };
      if (!tracing.on) return (await pool.query<Row>(query)).rows;
      // The span names the declared statement, never its values.
      return inSpan(`SELECT ${statement.name ?? 'statement'}`, { 'db.system.name': 'postgresql', 'db.query.summary': statement.name ?? 'unnamed' }, async () => (await pool.query<Row>(query)).rows, { kind: SpanKind.CLIENT });
    },
  });
}
