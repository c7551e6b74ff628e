// The one door to tenant rows runs declared statements with the bound workspace as $1: a named
// statement is prepared once per connection and reused, an unnamed one is never kept, and a
// failing statement rejects without costing the pool its connection; a cursor is ended by
// PostgreSQL when its reader stops fetching.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { tenantStatement } from '../../src/db/tenant-sql.js';
import { workspaceScopes } from '../../src/db/workspace-scope.js';
import { connectDatabase, EXPORT_APPLICATION_NAME } from '../../src/db/client.js';

let pool: pg.Pool;
let url: string;
// A one-row stand-in for the workspaces table, so the statements need no fixture rows.
const WORKSPACE = '(VALUES ($1::text)) AS workspaces (id)';
const NAMED = tenantStatement<{ workspace: string; echoed: string }, { echo: string }>(
  'test.scope-named',
  (workspace, param) =>
    `SELECT id AS workspace, ${param('echo')}::text AS echoed FROM ${WORKSPACE} WHERE ${workspace('workspaces')}`,
);
const UNNAMED = tenantStatement<{ workspace: string; echoed: string }, { echo: string }>(
  null,
  (workspace, param) =>
    `SELECT id AS workspace, ${param('echo')}::text AS echoed FROM ${WORKSPACE} ` +
    `WHERE ${workspace('workspaces')} /* unnamed */`,
);
const NAMED_VALUES = tenantStatement<{ first: string; second: string; again: string }, { a: string; b: string }>(
  'test.scope-named-values',
  (workspace, param) =>
    `SELECT ${param('b')}::text AS second, ${param('a')}::text AS first, ${param('b')}::text AS again
     FROM ${WORKSPACE} WHERE ${workspace('workspaces')}`,
);
const SERIES = tenantStatement<{ g: number }, { last: number }>(
  null,
  (workspace, param) =>
    `SELECT g FROM generate_series(1, ${param('last')}::int) AS g, ${WORKSPACE} WHERE ${workspace('workspaces')}`,
);
const FAILING = tenantStatement<{ n: number }, { n: number }>(
  'test.scope-failing',
  (workspace, param) => `SELECT 1 / (${param('n')}::int - 1) AS n FROM ${WORKSPACE} WHERE ${workspace('workspaces')}`,
);
const preparedStatements = async () =>
  (await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map(
    (row) => row.name,
  );

beforeAll(async () => {
  // One connection: every statement and the pg_prepared_statements probe share it.
  url = await createTestDatabase();
  pool = new pg.Pool({ connectionString: url, max: 1 });
});
afterAll(() => pool?.end());

describe('workspace scope', () => {
  it('binds the workspace as $1 and the values after it', async () => {
    const scope = workspaceScopes(pool)('ws_a');
    expect(await scope.rows(NAMED, { echo: 'x' })).toEqual([{ workspace: 'ws_a', echoed: 'x' }]);
    expect(await scope.rows(UNNAMED, { echo: 'y' })).toEqual([{ workspace: 'ws_a', echoed: 'y' }]);
    expect(await scope.rows(NAMED_VALUES, { a: 'x', b: 'y' })).toEqual([{ first: 'x', second: 'y', again: 'y' }]);
  });

  it('prepares a named statement once per connection and keeps no unnamed one', async () => {
    const scopeOf = workspaceScopes(pool);
    for (const workspace of ['ws_b', 'ws_c']) {
      expect(await scopeOf(workspace).rows(NAMED, { echo: 'again' })).toEqual([{ workspace, echoed: 'again' }]);
      await scopeOf(workspace).rows(UNNAMED, { echo: 'again' });
    }
    expect(await preparedStatements()).toEqual(['test.scope-named', 'test.scope-named-values']);
  });

  it("rejects a failing statement with PostgreSQL's error and leaves the connection usable", async () => {
    const scope = workspaceScopes(pool)('ws_d');
    await expect(scope.rows(FAILING, { n: 1 })).rejects.toMatchObject({ code: '22012' });
    expect(await scope.rows(FAILING, { n: 2 })).toEqual([{ n: 1 }]);
    expect(await scope.rows(NAMED, { echo: 'after' })).toEqual([{ workspace: 'ws_d', echoed: 'after' }]);
  });

  it('reads a cursor a FETCH at a time, and PostgreSQL ends an export transaction that stops fetching', async () => {
    const database = connectDatabase(url, 1, undefined, { size: 2, idleSeconds: 1 });
    const exportSessions = async () =>
      (
        await database.pool.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity ' +
            'WHERE datname = current_database() AND application_name = $1',
          [EXPORT_APPLICATION_NAME],
        )
      ).rows[0].n;
    try {
      const scope = workspaceScopes(database.readPool, database.streamPool)('ws_e');
      const stalled = await scope.cursor(SERIES, { last: 100_000 });
      expect(await stalled.read(3)).toEqual([{ g: 1 }, { g: 2 }, { g: 3 }]);
      // Nobody fetches: the server ends the session on its own (EXPORT_IDLE_SECONDS), whatever the process does.
      await expect.poll(exportSessions, { timeout: 10_000 }).toBe(0);
      await expect(stalled.read(3)).rejects.toThrow();
      await stalled.close();
      const next = await scope.cursor(SERIES, { last: 2 });
      expect([await next.read(10), await next.read(10)]).toEqual([[{ g: 1 }, { g: 2 }], []]);
      await next.close();
      expect([database.streamPool.totalCount, database.streamPool.idleCount]).toEqual([1, 1]);
    } finally {
      await database.close();
    }
  });
});
