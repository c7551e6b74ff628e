// SQL of no single workspace is declared once with named parameters and runs on any SqlRunner: a
// pool, a client in a transaction, an admin command's transaction (sqlOf).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { runStatement, sqlStatement } from '../../src/db/sql-runner.js';
import { inTransaction } from '../../src/db/transaction.js';

let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: await createTestDatabase(), max: 2 });
});
afterAll(() => pool?.end());

const PAIRS = sqlStatement<{ n: number; label: string }, { labels: string[]; from: number }>(
  'test.runner-pairs',
  (param) => `SELECT ${param('from')}::int + ordinality::int - 1 AS n, label
    FROM unnest(${param('labels')}::text[]) WITH ORDINALITY AS t(label, ordinality) ORDER BY n`,
);
const NOTHING = sqlStatement<{ one: number }>('test.runner-nothing', () => 'SELECT 1 AS one WHERE false');

describe('declared statements of no workspace', () => {
  it('compile their names to $1 … once, and run with named values on a pool or a transaction', async () => {
    expect(PAIRS.text).toContain('SELECT $1::int + ordinality');
    expect(PAIRS.params).toEqual(['from', 'labels']);
    const expected = [
      { n: 5, label: 'a' },
      { n: 6, label: 'b' },
    ];
    expect((await runStatement(pool, PAIRS, { labels: ['a', 'b'], from: 5 })).rows).toEqual(expected);
    expect(
      await inTransaction(
        pool,
        async (client) => (await runStatement(client, PAIRS, { labels: ['a', 'b'], from: 5 })).rows,
      ),
    ).toEqual(expected);
    expect(await runStatement(pool, NOTHING)).toEqual({ rows: [], rowCount: 0 });
  });

  it('keep a name for one text only', () => {
    expect(() => sqlStatement('test.runner-nothing', () => 'SELECT 2 AS one')).toThrow(/declared twice/);
  });
});
