// Verified MCP access tokens are cached like API keys; a verification that read the token before
// its revocation was announced must not be kept (against the real database).
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokenVerifier } from '../../src/mcp/oauth/access-tokens.js';
import { OAUTH_INVALIDATION_TARGET } from '../../src/mcp/connector.js';
import { storedIdOf } from '../../src/mcp/oauth/oauth-adapter.js';
import { accountIdOf } from '../../src/mcp/oauth/oauth-accounts.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';

const RESOURCE = 'http://test.local/mcp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('MCP access-token verification', () => {
  it('does not keep a verification that read the token before its revocation was announced', async () => {
    const { workspace, ownerEmail } = await createKeyedWorkspace(t.database);
    const { id: userId } = await t.database.prisma.user.findUniqueOrThrow({ where: { email: ownerEmail } });
    const token = 'a'.repeat(24) + Math.random().toString(36).slice(2, 12);
    const payload = {
      aud: RESOURCE,
      accountId: accountIdOf(userId, workspace.id),
      clientId: 'client-under-test',
      scope: 'mcp',
      exp: Math.floor(Date.now() / 1000) + 3_600,
    };
    await t.database.pool.query(
      "INSERT INTO oauth_models (model, id, payload, expires_at) VALUES ('AccessToken', " +
        "$1, $2, now() + interval '1 hour')",
      [storedIdOf('AccessToken', token), JSON.stringify(payload)],
    );

    // The first verification reads the row, then waits until the revocation has been committed and announced.
    let read!: () => void;
    const hasRead = new Promise<void>((resolve) => (read = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const gated = {
      query: async (text: string, values: unknown[]) => {
        const result = await t.database.pool.query(text, values);
        if (!held) {
          held = true;
          read();
          await released;
        }
        return result;
      },
    } as unknown as pg.Pool;
    const verifier = createAccessTokenVerifier(gated, () => RESOURCE);

    const racing = verifier.verify(token);
    await hasRead;
    await t.database.pool.query("DELETE FROM oauth_models WHERE model = 'AccessToken' AND id = $1", [
      storedIdOf('AccessToken', token),
    ]);
    verifier.invalidate(OAUTH_INVALIDATION_TARGET);
    expect(await verifier.verify(token)).toBeNull();
    release();
    // It began before the revocation and may pass, but what it read is not kept.
    expect((await racing)?.userId).toBe(userId);
    expect(await verifier.verify(token)).toBeNull();
  });

  it('keeps a verification no longer than its token lives', async () => {
    const { workspace, ownerEmail } = await createKeyedWorkspace(t.database);
    const { id: userId } = await t.database.prisma.user.findUniqueOrThrow({ where: { email: ownerEmail } });
    const token = 'b'.repeat(24) + Math.random().toString(36).slice(2, 12);
    const expiresAtMs = (Math.floor(Date.now() / 1000) + 2) * 1000;
    const payload = {
      aud: RESOURCE,
      accountId: accountIdOf(userId, workspace.id),
      clientId: 'client-under-test',
      scope: 'mcp',
      exp: expiresAtMs / 1000,
    };
    // The row outlives the token, so only the token's own expiry can refuse it.
    await t.database.pool.query(
      "INSERT INTO oauth_models (model, id, payload, expires_at) VALUES ('AccessToken', " +
        "$1, $2, now() + interval '1 hour')",
      [storedIdOf('AccessToken', token), JSON.stringify(payload)],
    );
    const verifier = createAccessTokenVerifier(t.database.pool, () => RESOURCE);
    expect((await verifier.verify(token))?.userId).toBe(userId);
    await new Promise((resolve) => setTimeout(resolve, expiresAtMs - Date.now() + 50));
    expect(await verifier.verify(token)).toBeNull();
  });
});
