// The key lookup under concurrency, against the real database: a burst on a key that is not
// cached yet sends one query, and a lookup that raced a revocation is not kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyAuthenticator } from '../../src/auth/api-keys.js';
import { revokeApiKey } from '../../src/auth/key-management.js';
import type { SqlRunner } from '../../src/db/sql-runner.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const isKeyLookup = (text: string) => /FROM api_keys/.test(text);

describe('API key lookups', () => {
  it('send one query for a burst of requests with a key not cached yet', async () => {
    const { key } = await createKeyedWorkspace(t.database);
    let lookups = 0;
    const counted: SqlRunner = {
      query: (text, values) => (
        (lookups += isKeyLookup(text) ? 1 : 0),
        t.database.pool.query(text, values as unknown[])
      ),
    };
    const authenticator = createApiKeyAuthenticator(counted);
    const principals = await Promise.all(
      Array.from({ length: 20 }, () => authenticator.authenticate(`Bearer ${key.secret}`, new Date())),
    );
    expect(lookups).toBe(1);
    expect(new Set(principals.map((principal) => principal.credentialId))).toEqual(new Set([key.id]));
  });

  it('do not keep a lookup that read the key before a revocation was announced', async () => {
    const { key, ownerEmail } = await createKeyedWorkspace(t.database);
    // The first lookup reads the row, then waits until the revocation has been committed and announced.
    let read!: () => void;
    const hasRead = new Promise<void>((resolve) => (read = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const gated: SqlRunner = {
      query: async (text, values) => {
        const result = await t.database.pool.query(text, values as unknown[]);
        if (isKeyLookup(text) && !held) {
          held = true;
          read();
          await released;
        }
        return result;
      },
    };
    const authenticator = createApiKeyAuthenticator(gated);
    const racing = authenticator.authenticate(`Bearer ${key.secret}`, new Date());
    await hasRead;
    await revokeApiKey(t.database.prisma, async (target) => authenticator.invalidate(target), key.id, {
      email: ownerEmail,
    });
    // A request that arrives now does not join the lookup that began before the revocation.
    await expect(authenticator.authenticate(`Bearer ${key.secret}`, new Date())).rejects.toMatchObject({
      code: 'api_key_revoked',
    });
    release();
    // The racing request began before the revocation: it may pass, as it would have a moment earlier,
    // but what it read is not kept for the requests after it.
    expect((await racing).credentialId).toBe(key.id);
    await expect(authenticator.authenticate(`Bearer ${key.secret}`, new Date())).rejects.toMatchObject({
      code: 'api_key_revoked',
    });
  });
});
