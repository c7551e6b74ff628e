import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrate, listMigrations } from '../../src/db/migrate.js';
import { createTestDatabase } from '../support/database.js';

describe('migrations', () => {
  it('apply on an empty database, and a second run changes nothing', async () => {
    const url = await createTestDatabase({ migrated: false });
    const first = await migrate(url);
    expect(first.applied).toEqual(listMigrations().map((m) => m.name));
    const second = await migrate(url);
    expect(second).toEqual({ applied: [], alreadyApplied: first.applied });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    await client.end();
    expect(tables.rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([
        'workspaces',
        'api_keys',
        'clients',
        'reports',
        'metric_facts',
        'scans',
        'webhook_events',
        'sessions',
        'audit_log',
      ]),
    );
  });

  it('run concurrently from two instances without racing', async () => {
    const url = await createTestDatabase({ migrated: false });
    const [a, b] = await Promise.all([migrate(url), migrate(url)]);
    expect([...a.applied, ...b.applied].sort()).toEqual(
      listMigrations()
        .map((m) => m.name)
        .sort(),
    );
  });
});
