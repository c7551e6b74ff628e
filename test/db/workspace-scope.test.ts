// The one door to tenant rows runs declared statements with the bound workspace as $1: a named
// statement is prepared once per connection and reused, an unnamed one is never kept, and a
// failing statement rejects without costing the pool its connection.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { tenantStatement } from '../../src/db/tenant-sql.js';
import { workspaceScopes } from '../../src/db/workspace-scope.js';

let pool: pg.Pool;
// A one-row stand-in for the workspaces table, so the statements need no fixture rows.
const WORKSPACE = '(VALUES ($1::text)) AS workspaces (id)';
const NAMED = tenantStatement<{ workspace: string; echoed: string }>('test.scope-named', (workspace) => `SELECT id AS workspace, $2::text AS echoed FROM ${WORKSPACE} WHERE ${workspace('workspaces')}`);
const UNNAMED = tenantStatement<{ workspace: string; echoed: string }>(null, (workspace) => `SELECT id AS workspace, $2::text AS echoed FROM ${WORKSPACE} WHERE ${workspace('workspaces')} /* unnamed */`);
const FAILING = tenantStatement<{ n: number }>('test.scope-failing', (workspace) => `SELECT 1 / ($2::int - 1) AS n FROM ${WORKSPACE} WHERE ${workspace('workspaces')}`);
const preparedStatements = async () => (await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((row) => row.name);

beforeAll(async () => {
  // One connection: every statement and the pg_prepared_statements probe share it.
  pool = new pg.Pool({ connectionString: await createTestDatabase(), max: 1 });
});
afterAll(() => pool?.end());

describe('workspace scope', () => {
  it('binds the workspace as $1 and the values after it', async () => {
    const scope = workspaceScopes(pool)('ws_a');
    expect(await scope.rows(NAMED, ['x'])).toEqual([{ workspace: 'ws_a', echoed: 'x' }]);
    expect(await scope.rows(UNNAMED, ['y'])).toEqual([{ workspace: 'ws_a', echoed: 'y' }]);
  });

  it('prepares a named statement once per connection and keeps no unnamed one', async () => {
    const scopeOf = workspaceScopes(pool);
    for (const workspace of ['ws_b', 'ws_c']) {
      expect(await scopeOf(workspace).rows(NAMED, ['again'])).toEqual([{ workspace, echoed: 'again' }]);
      await scopeOf(workspace).rows(UNNAMED, ['again']);
    }
    expect(await preparedStatements()).toEqual(['test.scope-named']);
  });

  it('rejects a failing statement with PostgreSQL\'s error and leaves the connection usable', async () => {
    const scope = workspaceScopes(pool)('ws_d');
    await expect(scope.rows(FAILING, [1])).rejects.toMatchObject({ code: '22012' });
    expect(await scope.rows(FAILING, [2])).toEqual([{ n: 1 }]);
    expect(await scope.rows(NAMED, ['after'])).toEqual([{ workspace: 'ws_d', echoed: 'after' }]);
  });
});
