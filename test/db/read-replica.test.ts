// With DATABASE_REPLICA_URL, the heavy reads go to the replica while key checks stay on the
// primary, so a revocation is never delayed by replication lag.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { revokeApiKey } from '../../src/auth/key-management.js';
import { withDatabase } from '../support/global-setup.js';
import { createTestDatabase } from '../support/database.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
let key: Awaited<ReturnType<typeof createKeyedWorkspace>>;
let replicaUrl: string;

beforeAll(async () => {
  const primaryUrl = await createTestDatabase();
  const setup = connectDatabase(primaryUrl, 2);
  key = await createKeyedWorkspace(setup);
  await setup.close();
  // The "replica": a copy of the primary taken now, which then diverges.
  const name = `replica_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: withDatabase(primaryUrl, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE "${new URL(primaryUrl).pathname.slice(1)}"`);
  await admin.end();
  replicaUrl = withDatabase(primaryUrl, name);
  const replica = new pg.Client({ connectionString: replicaUrl });
  await replica.connect();
  await replica.query("INSERT INTO clients (id, workspace_id, name) VALUES ($1, $2, 'Only on the replica')", [
    newId('client'),
    key.workspace.id,
  ]);
  await replica.end();
  t = await createTestApp({}, { url: primaryUrl, replicaUrl });
});
afterAll(() => t.close());

describe('read replica', () => {
  it('serves lists from the replica and checks keys on the primary', async () => {
    const body = await json(await t.get('/api/v1/clients', key.key.secret));
    expect(body.data.map((client: { name: string }) => client.name)).toEqual(['Only on the replica']);
    await revokeApiKey(t.database.prisma, async (target) => t.authenticator.invalidate(target), key.key.id, {
      email: key.ownerEmail,
    });
    expect((await t.get('/api/v1/clients', key.key.secret)).status).toBe(401);
  });
});
