import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { withDatabase } from './global-setup.js';

/** A fresh database cloned from the migrated template: isolated per test file. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const templateUrl = inject('adminDatabaseUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(templateUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(options.migrated === false ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE signalboard_template`);
  } finally {
    await admin.end();
  }
  return withDatabase(templateUrl, name);
}
