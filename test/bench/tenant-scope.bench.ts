// npm run bench:tenant — what each way of enforcing the tenant scope costs at the database, on
// the statements behind v1's two busiest reads (/clients and /reports/{id}), 20 connections,
// alternated rounds:
// - guard: the statement carries `workspace_id = $1` (declared with its binding, db/tenant-sql.ts);
// - rls: PostgreSQL row-level security under a non-superuser role, the workspace set per
//   transaction (BEGIN; set_config('app.workspace_id', …, true); the statement; COMMIT);
// - rls-session: the same policy, the workspace set on the connection before each statement
//   (one round trip fewer, but a connection leaving the pool carries the last tenant).
import pg from 'pg';
import { connectDatabase } from '../../src/db/client.js';
import { tenantStatement } from '../../src/db/tenant-sql.js';
import { workspaceScopes } from '../../src/db/workspace-scope.js';
import { alternate, benchApiFixtures, benchDatabase, printTable, ratio, runBench } from './harness.js';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 15) * 1000;
const CONCURRENCY = 20;
const ROLE = 'tenant_bench';

// The guard's statements are declared as the repositories declare theirs and run through the one door.
const CLIENTS = tenantStatement<{ id: string }>(
  'bench.tenant-clients',
  (workspace) =>
    `SELECT id, name, created_at FROM clients WHERE ${workspace()} ORDER BY created_at DESC, id DESC LIMIT 500`,
);
const CLIENTS_RLS = 'SELECT id, name, created_at FROM clients ORDER BY created_at DESC, id DESC LIMIT 500';
const REPORT = tenantStatement<{ id: string }, { id: string }>(
  'bench.tenant-report',
  (workspace, param) =>
    `SELECT id, name, client_id, definition, updated_at FROM reports
     WHERE ${workspace()} AND archived_at IS NULL AND id = ${param('id')}`,
);
const REPORT_RLS =
  'SELECT id, name, client_id, definition, updated_at FROM reports WHERE archived_at IS NULL AND id = $1';

async function installRowLevelSecurity(admin: pg.Pool) {
  await admin.query(
    `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${ROLE}') THEN ` +
      `CREATE ROLE ${ROLE} LOGIN PASSWORD '${ROLE}'; END IF; END $$`,
  );
  for (const table of ['clients', 'reports']) {
    await admin.query(`GRANT SELECT ON ${table} TO ${ROLE}`);
    await admin.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
    await admin.query(`DROP POLICY IF EXISTS tenant ON ${table}`);
    await admin.query(
      `CREATE POLICY tenant ON ${table} USING (workspace_id = current_setting('app.workspace_id', true))`,
    );
  }
}

async function removeRowLevelSecurity(admin: pg.Pool) {
  for (const table of ['clients', 'reports']) {
    await admin.query(`DROP POLICY IF EXISTS tenant ON ${table}`);
    await admin.query(`ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`);
  }
}

runBench(async () => {
  const database = await benchDatabase();
  const db = connectDatabase(database.url, 4);
  const { workspace, report } = await benchApiFixtures(db);
  await installRowLevelSecurity(db.pool);
  const url = new URL(database.url);
  const guardPool = new pg.Pool({ connectionString: database.url, max: CONCURRENCY });
  url.username = ROLE;
  url.password = ROLE;
  const rlsPool = new pg.Pool({ connectionString: url.href, max: CONCURRENCY });
  // Idle connections ended by the database's shutdown at the end are no failure of the bench.
  for (const pool of [guardPool, rlsPool]) pool.on('error', () => {});
  try {
    const inTransaction = async (text: string, values: unknown[]) => {
      const client = await rlsPool.connect();
      try {
        await client.query('BEGIN');
        await client.query("SELECT set_config('app.workspace_id', $1, true)", [workspace.id]);
        const result = await client.query({ name: text === CLIENTS_RLS ? 'c' : 'r', text, values });
        await client.query('COMMIT');
        return result.rows.length > 0;
      } finally {
        client.release();
      }
    };
    const onSession = async (text: string, values: unknown[]) => {
      const client = await rlsPool.connect();
      try {
        await client.query("SELECT set_config('app.workspace_id', $1, false)", [workspace.id]);
        return (await client.query({ name: text === CLIENTS_RLS ? 'c' : 'r', text, values })).rows.length > 0;
      } finally {
        client.release();
      }
    };
    // The policy really filters: on a fresh connection without the setting the tenant role sees nothing.
    const fresh = new pg.Client({ connectionString: url.href });
    await fresh.connect();
    const unset = await fresh.query(CLIENTS_RLS);
    await fresh.end();
    if (unset.rows.length !== 0) throw new Error('row-level security does not filter');

    const guarded = workspaceScopes(guardPool)(workspace.id);
    const results = await alternate(
      [
        {
          label: 'guard  /clients statement',
          task: async () => (await guarded.rows(CLIENTS)).length > 0,
        },
        { label: 'rls    /clients statement (transaction)', task: () => inTransaction(CLIENTS_RLS, []) },
        { label: 'rls    /clients statement (session)', task: () => onSession(CLIENTS_RLS, []) },
        {
          label: 'guard  /reports/{id} statement',
          task: async () => (await guarded.rows(REPORT, { id: report.id })).length > 0,
        },
        { label: 'rls    /reports/{id} statement (transaction)', task: () => inTransaction(REPORT_RLS, [report.id]) },
        { label: 'rls    /reports/{id} statement (session)', task: () => onSession(REPORT_RLS, [report.id]) },
      ],
      { concurrency: CONCURRENCY, durationMs: DURATION_MS, rounds: 3 },
    );
    printTable(`Tenant scope at the database: guard vs row-level security (concurrency ${CONCURRENCY})`, results);
    const [guardList, rlsList, sessionList, guardFind, rlsFind, sessionFind] = results as [
      (typeof results)[0],
      (typeof results)[0],
      (typeof results)[0],
      (typeof results)[0],
      (typeof results)[0],
      (typeof results)[0],
    ];
    const throughput = (row: typeof guardList) => row.requests / row.seconds;
    for (const [name, guard, rls] of [
      ['/clients, per transaction', guardList, rlsList],
      ['/clients, per session', guardList, sessionList],
      ['/reports/{id}, per transaction', guardFind, rlsFind],
      ['/reports/{id}, per session', guardFind, sessionFind],
    ] as const) {
      console.log(
        `${name}: rls throughput ${(throughput(rls) / throughput(guard)).toFixed(2)}× guard, ` +
          `p50 ${ratio(rls, guard).p50.toFixed(2)}×, p99 ${ratio(rls, guard).p99.toFixed(2)}×`,
      );
    }
  } finally {
    await removeRowLevelSecurity(db.pool);
    await guardPool.end();
    await rlsPool.end();
    await db.close();
    await database.stop();
  }
});
