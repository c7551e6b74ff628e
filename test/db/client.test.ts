import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXPORT_POOL_DEFAULTS } from '../../src/config/index.js';
import { connectDatabase, EXPORT_APPLICATION_NAME, STATEMENT_TIMEOUT_MS, type Database } from '../../src/db/client.js';
import { toApiError } from '../../src/errors/index.js';
import { createTestDatabase } from '../support/database.js';

describe('the database pools', () => {
  let database: Database;
  beforeAll(async () => {
    database = connectDatabase(await createTestDatabase(), 2);
  });
  afterAll(() => database.close());
  afterEach(() => vi.restoreAllMocks());

  it('have PostgreSQL cancel a statement past the limit, and end an export that stops fetching', async () => {
    for (const pool of [database.pool, database.readPool, database.streamPool]) {
      expect((await pool.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe(
        `${STATEMENT_TIMEOUT_MS / 1000}s`,
      );
    }
    expect(
      (await database.pool.query('SHOW idle_in_transaction_session_timeout')).rows[0]
        .idle_in_transaction_session_timeout,
    ).toBe('0');
    expect(
      (await database.streamPool.query('SHOW idle_in_transaction_session_timeout')).rows[0]
        .idle_in_transaction_session_timeout,
    ).toBe(`${EXPORT_POOL_DEFAULTS.idleSeconds / 60}min`);
    expect((await database.streamPool.query('SHOW application_name')).rows[0].application_name).toBe(
      EXPORT_APPLICATION_NAME,
    );
  });

  it('leave no timer armed while a statement runs or after its connection is released', async () => {
    // Timers per query or release cost every scavenge (test/bench/README.md, "what survived the scavenges").
    // Those of a second or more still armed: pg-pool's own connection timer is cleared as the connection is handed out.
    const armed = new Set<unknown>();
    const { setTimeout: realSet, clearTimeout: realClear } = globalThis;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
      const timer = realSet(callback, ms);
      if ((ms ?? 0) >= 1_000) armed.add(timer);
      return timer;
    }) as typeof setTimeout);
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((timer: NodeJS.Timeout) => {
      armed.delete(timer);
      realClear(timer);
    }) as typeof clearTimeout);
    await database.pool.query('SELECT 1');
    const sleeping = database.pool.query('SELECT pg_sleep(0.05)');
    await new Promise((resolve) => realSet(resolve, 20));
    expect(armed.size).toBe(0);
    await sleeping;
    expect(armed.size).toBe(0);
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
