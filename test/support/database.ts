import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { withDatabase } from './global-setup.js';

/**
 * A fresh database cloned from the migrated template: isolated per test file. With `icuLocale`,
 * one whose default collation is that ICU locale's (as a managed PostgreSQL's en_US.UTF-8 would
 * be), migrated from scratch: the template's collation is C.
 */
export async function createTestDatabase(options: { migrated?: boolean; icuLocale?: string } = {}): Promise<string> {
  const templateUrl = inject('adminDatabaseUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(templateUrl, 'postgres') });
  await admin.connect();
  try {
    if (options.icuLocale)
      await admin.query(
        `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C' ` +
          `LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale}'`,
      );
    else
      await admin.query(
        options.migrated === false
          ? `CREATE DATABASE ${name}`
          : `CREATE DATABASE ${name} TEMPLATE signalboard_template`,
      );
  } finally {
    await admin.end();
  }
  const url = withDatabase(templateUrl, name);
  if (options.icuLocale && options.migrated !== false) await migrate(url);
  return url;
}

/** Resolves once `count` sessions of this database wait on a lock (a test's held row lock, say). */
export async function sessionsWaitingOnLocks(pool: pg.Pool, count: number): Promise<void> {
  for (let waiting = 0; waiting < count;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    waiting = rows[0].n;
  }
}
