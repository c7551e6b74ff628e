// One workspace's share of the read pool: its statements past the share wait in its own queue,
// so another workspace's statement gets a connection at once (through a real pool), and the
// shares themselves count, order and hand over as they should.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStatementShares } from '../../src/db/statement-shares.js';
import { tenantStatement } from '../../src/db/tenant-sql.js';
import { ClientGone, workspaceScopes } from '../../src/db/workspace-scope.js';
import { createTestDatabase } from '../support/database.js';
import { statementsDuring } from '../support/sql-count.js';

const WORKSPACE = '(VALUES ($1::text)) AS workspaces (id)';
const SLOW = tenantStatement<{ id: string }, { seconds: number }>(
  null,
  (workspace, param) =>
    `SELECT id FROM ${WORKSPACE}, pg_sleep(${param('seconds')}::float8) WHERE ${workspace('workspaces')}`,
);

describe('statement shares', () => {
  it('runs at most the share at once per workspace, the rest in the order asked, other workspaces apart', async () => {
    const shares = createStatementShares(2);
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const statement = (name: string) => () => {
      running++;
      most = Math.max(most, running);
      order.push(name);
      return new Promise<string>((resolve) => releases.push(() => (running--, resolve(name))));
    };
    const a = ['a1', 'a2', 'a3', 'a4'].map((name) => shares.run('ws_a', statement(name)));
    const b = shares.run('ws_b', statement('b1'));
    await new Promise((resolve) => setImmediate(resolve));
    // a1 and a2 run, a3 and a4 wait; b1 runs beside them.
    expect(order).toEqual(['a1', 'a2', 'b1']);
    releases[0]!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3']);
    // Each release lets the next waiting statement in, until all five have run.
    for (let released = 1; released < 5; released++) {
      while (releases.length <= released) await new Promise((resolve) => setImmediate(resolve));
      releases[released]!();
    }
    expect(await Promise.all([...a, b])).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    expect(most).toBe(3);
  });

  it('hands the share on when a statement fails', async () => {
    const shares = createStatementShares(1);
    const failing = shares.run('ws_a', async () => Promise.reject(new Error('statement failed')));
    await expect(failing).rejects.toThrow('statement failed');
    expect(await shares.run('ws_a', async () => 'next')).toBe('next');
  });
});

describe('a workspace flooding the read pool', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await createTestDatabase(), max: 3 });
  });
  afterAll(() => pool?.end());

  it("leaves a connection for another workspace: B's statement ends before any of A's six", async () => {
    const scopeOf = workspaceScopes(pool, pool, createStatementShares(2));
    const finished: string[] = [];
    const a = Array.from({ length: 6 }, () =>
      scopeOf('ws_a')
        .rows(SLOW, { seconds: 0.4 })
        .then(() => finished.push('a')),
    );
    // A's statements have asked first; without shares they would hold all three connections.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await scopeOf('ws_b')
      .rows(SLOW, { seconds: 0 })
      .then(() => finished.push('b'));
    await Promise.all(a);
    expect(finished[0]).toBe('b');
  });

  it("stops a request's statements once its client went away: the queued ones never take a connection", async () => {
    const scopeOf = workspaceScopes(pool, pool, createStatementShares(1));
    const client = new AbortController();
    const scope = scopeOf('ws_gone', client.signal);
    let settled: PromiseSettledResult<unknown>[] = [];
    const sent = await statementsDuring(async () => {
      const outcomes = Promise.allSettled(Array.from({ length: 5 }, () => scope.rows(SLOW, { seconds: 0.3 })));
      // The first statement runs, four wait in the share; the client leaves meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 100));
      client.abort();
      settled = await outcomes;
    });
    expect(sent).toHaveLength(1);
    expect(settled[0]!.status).toBe('fulfilled');
    for (const outcome of settled.slice(1))
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ClientGone);
    expect(await scopeOf('ws_gone').rows(SLOW, { seconds: 0 })).toEqual([{ id: 'ws_gone' }]);
  });
});
