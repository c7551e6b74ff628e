import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, STATEMENT_TIMEOUT_MS, type Database } from '../../src/db/client.js';
import { toApiError } from '../../src/errors/index.js';
import { createTestDatabase } from '../support/database.js';

describe('the database pools', () => {
  let database: Database;
  beforeAll(async () => {
    database = connectDatabase(await createTestDatabase(), 2);
  });
  afterAll(() => database.close());

  it('have PostgreSQL cancel a statement of the API past the limit; streaming exports have none', async () => {
    expect((await database.pool.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
    expect((await database.readPool.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
    expect((await database.streamPool.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('0');
  });

  it('arm no timer for a query or a released connection', async () => {
    // Timers that outlive a scavenge kept requests' garbage alive into the old generation (test/bench/README.md).
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    await database.pool.query('SELECT 1');
    const before = timers();
    const sleeping = database.pool.query('SELECT pg_sleep(0.05)');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One timer: the test's own, just fired; none for the running query.
    expect(timers()).toBe(before);
    await sleeping;
    expect(timers()).toBe(before);
  });

  it('answer a cancelled statement as 503 with Retry-After, and the connection serves the next one', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('SET statement_timeout = 50');
      const error = await client.query('SELECT pg_sleep(2)').catch((caught: unknown) => caught);
      const logged: unknown[] = [];
      const answered = toApiError(error, (cause) => logged.push(cause));
      expect(answered.status).toBe(503);
      expect(answered.headers).toMatchObject({ 'Retry-After': '2' });
      expect(logged).toEqual([]);
      expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    } finally {
      await client.query('RESET statement_timeout');
      client.release();
    }
  });
});
