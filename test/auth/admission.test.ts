// Issue 4 through HTTP: authentication, plans, scopes, isolation, revocation, expiry,
// the token bucket, and that no secret is ever stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createApiKey, revokeApiKey } from '../../src/auth/key-management.js';
import { setPlan } from '../../src/workspaces/service.js';
import { UsageError } from '../../src/errors/index.js';
import { newId } from '../../src/db/ids.js';
import { parseApiKey } from '../../src/auth/api-key-format.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';
import { call, personWithPassword, signIn } from '../support/web.js';

let t: TestApp;
const notify = async (target: string) => t.authenticator.invalidate(target);

beforeAll(async () => {
  // Bursts here test the token bucket; the cap on requests in flight (its own test: workspace-concurrency.test.ts)
  // stays out of their way.
  t = await createTestApp({ RATE_LIMIT_SCALE: '30/1', WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000' });
});
afterAll(() => t.close());

const errorOf = async (response: Response) => ({ status: response.status, code: (await json(response)).error?.code });

describe('authentication', () => {
  it('refuses missing, malformed, unknown and wrong-secret keys with 401 unauthenticated', async () => {
    const { key } = await createKeyedWorkspace(t.database);
    const { keyId } = parseApiKey(key.secret)!;
    const wrongSecret = `sgb_live_${keyId}.${'A'.repeat(43)}`;
    const headers = [
      undefined,
      '',
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer ',
      `Bearer ${key.secret} extra`,
      'Bearer sgb_live_short.x',
      `Bearer ${key.secret.toUpperCase()}`,
      `Bearer sgb_live_AAAAAAAAAAAAAAAA.${'a'.repeat(43)}`,
      `Bearer ${wrongSecret}`,
      `Bearer ${'x'.repeat(10_000)}`,
    ];
    for (const authorization of headers) {
      const response = await t.app.fetch(
        new Request('http://test.local/api/v1/clients', {
          headers: authorization === undefined ? {} : { authorization },
        }),
      );
      expect(await errorOf(response), String(authorization).slice(0, 40)).toEqual({
        status: 401,
        code: 'unauthenticated',
      });
    }
  });

  it('fails the very next request after revocation with api_key_revoked', async () => {
    const { key, ownerEmail } = await createKeyedWorkspace(t.database);
    expect((await t.get('/api/v1/clients', key.secret)).status).toBe(200);
    await revokeApiKey(t.database.prisma, notify, key.id, { email: ownerEmail });
    expect(await errorOf(await t.get('/api/v1/clients', key.secret))).toEqual({ status: 401, code: 'api_key_revoked' });
  });

  it('stops accepting a key once its expiry passes between two requests', async () => {
    const { workspace, ownerEmail } = await createKeyedWorkspace(t.database);
    const expiresAt = new Date(Date.now() + 3_600_000);
    const key = await createApiKey(t.database.prisma, {
      workspaceId: workspace.id,
      name: 'short-lived',
      expiresAt,
      actor: { email: ownerEmail },
    });
    // The first request leaves the key in the authenticator's cache; each request hands it its own `now`.
    expect((await t.get('/api/v1/clients', key.secret)).status).toBe(200);
    const authorization = `Bearer ${key.secret}`;
    await expect(t.authenticator.authenticate(authorization, new Date(expiresAt.getTime() - 1))).resolves.toMatchObject(
      { workspaceId: workspace.id },
    );
    await expect(t.authenticator.authenticate(authorization, expiresAt)).rejects.toMatchObject({
      code: 'api_key_expired',
    });
    // Through HTTP: the stored expiry moved into the past is the request's answer.
    await t.database.pool.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [key.id]);
    t.authenticator.invalidate(key.id);
    expect(await errorOf(await t.get('/api/v1/clients', key.secret))).toEqual({ status: 401, code: 'api_key_expired' });
  });

  it('lets only owners and admins create or revoke keys', async () => {
    const { workspace, key } = await createKeyedWorkspace(t.database);
    const user = await t.database.prisma.user.create({
      data: { id: newId('user'), email: `member-${workspace.slug}@example.test`, name: 'Member' },
    });
    await t.database.prisma.membership.create({
      data: { id: newId('membership'), workspaceId: workspace.id, userId: user.id, role: 'member' },
    });
    await expect(
      createApiKey(t.database.prisma, { workspaceId: workspace.id, name: 'x', actor: { email: user.email } }),
    ).rejects.toThrow(UsageError);
    await expect(revokeApiKey(t.database.prisma, notify, key.id, { email: user.email })).rejects.toThrow(
      /only owners and admins/,
    );
    expect((await t.get('/api/v1/clients', key.secret)).status).toBe(200);
  });

  it('records lastUsedAt without the caller waiting for it', async () => {
    const { key } = await createKeyedWorkspace(t.database);
    await t.get('/api/v1/clients', key.secret);
    await expect
      .poll(async () => (await t.database.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt)
      .not.toBeNull();
  });

  it('serves v1 without a Prisma query: a key is looked up and its use recorded in plain SQL', async () => {
    // Prisma's first query loads its WebAssembly query compiler (20–33 MB resident), which an
    // instance serving only the API would otherwise carry for this one lookup.
    const { workspace, key } = await createKeyedWorkspace(t.database);
    await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: workspace.id, days: 3, clients: 1 });
    const report = await t.database.prisma.report.findFirstOrThrow({ where: { workspaceId: workspace.id } });
    const project = await t.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
    const paths = [
      '/api/v1/clients',
      '/api/v1/reports',
      `/api/v1/reports/${report.id}`,
      `/api/v1/reports/${report.id}/data`,
      '/api/v1/ai-visibility/projects',
      `/api/v1/ai-visibility/projects/${project.id}/metrics`,
    ];
    const statements = await statementsDuring(async () => {
      for (const path of paths) expect((await t.get(path, key.secret)).status, path).toBe(200);
      await expect
        .poll(
          async () =>
            (await t.database.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [key.id])).rows[0]
              .last_used_at,
        )
        .not.toBeNull();
    });
    expect(
      statements.filter((text) => /\bapi_keys\b/.test(text) && !text.startsWith('SELECT last_used_at')),
    ).toHaveLength(2);
    // Prisma's SQL names every table with its schema, quoted.
    expect(statements.filter((text) => text.includes('"public".'))).toEqual([]);
  });
});

describe('plans and scopes', () => {
  it('refuses workspaces below pro with 403 plan_required, and follows a plan change at once', async () => {
    for (const plan of ['free', 'starter']) {
      const { key } = await createKeyedWorkspace(t.database, { plan });
      const refused = await t.get('/api/v1/clients', key.secret);
      expect(refused.status).toBe(403);
      expect((await json(refused)).error).toMatchObject({
        code: 'plan_required',
        message:
          'The API needs the Pro, Agency or Scale plan; ' +
          `this workspace is on ${plan === 'free' ? 'Free' : 'Starter'}.`,
      });
    }
    const { workspace, key } = await createKeyedWorkspace(t.database, { plan: 'pro' });
    expect((await t.get('/api/v1/clients', key.secret)).status).toBe(200);
    await setPlan(t.database.prisma, notify, workspace.slug, 'starter');
    expect(await errorOf(await t.get('/api/v1/clients', key.secret))).toEqual({ status: 403, code: 'plan_required' });
  });

  it("refuses calls outside the key's scopes with 403 insufficient_scope, on v1 and GraphQL", async () => {
    const { key } = await createKeyedWorkspace(t.database, { scopes: ['clients:read'] });
    expect((await t.get('/api/v1/clients', key.secret)).status).toBe(200);
    for (const path of [
      '/api/v1/reports',
      '/api/v1/reports/rep_AAAAAAAAAAAAAAAAAAAA',
      '/api/v1/ai-visibility/projects',
    ]) {
      expect(await errorOf(await t.get(path, key.secret)), path).toEqual({ status: 403, code: 'insufficient_scope' });
    }
    const refusalOf = async (query: string) => {
      const graphql = await t.app.fetch(
        new Request('http://test.local/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
          body: JSON.stringify({ query }),
        }),
      );
      const [refused] = (await json(graphql)).errors;
      return { code: refused.extensions.code, message: refused.message };
    };
    expect(await refusalOf('{ reports { meta { total } } }')).toEqual({
      code: 'insufficient_scope',
      message: 'This API key lacks the reports:read scope.',
    });
    // node(id) reads the kind from the id's prefix and asks the same scope of it.
    expect(await refusalOf('{ node(id: "rep_AAAAAAAAAAAAAAAAAAAA") { id } }')).toEqual({
      code: 'insufficient_scope',
      message: 'Reading rep_AAAAAAAAAAAAAAAAAAAA needs the reports:read scope.',
    });
  });

  it("checks in the contract's order: authentication, plan, scope, then parameters", async () => {
    const { key, ownerEmail } = await createKeyedWorkspace(t.database, { scopes: ['clients:read'] });
    expect((await errorOf(await t.get('/api/v1/reports?clientId=bad', key.secret))).code).toBe('insufficient_scope');
    const starter = await createKeyedWorkspace(t.database, { plan: 'starter' });
    expect((await errorOf(await t.get('/api/v1/reports?clientId=bad', starter.key.secret))).code).toBe('plan_required');
    await revokeApiKey(t.database.prisma, notify, key.id, { email: ownerEmail });
    expect((await errorOf(await t.get('/api/v1/reports?clientId=bad', key.secret))).code).toBe('api_key_revoked');
    expect((await errorOf(await t.get('/api/v1/reports?clientId=bad'))).code).toBe('unauthenticated');
  });
});

describe('workspace isolation', () => {
  it("answers 404 for another workspace's ids on every endpoint, and never lists its rows", async () => {
    const mine = await createKeyedWorkspace(t.database);
    const theirs = await createKeyedWorkspace(t.database);
    await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: theirs.workspace.id, days: 5, clients: 1 });
    const report = await t.database.prisma.report.findFirstOrThrow({ where: { workspaceId: theirs.workspace.id } });
    const project = await t.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: theirs.workspace.id } });
    for (const path of [
      `/api/v1/reports/${report.id}`,
      `/api/v1/reports/${report.id}/data`,
      `/api/v1/ai-visibility/projects/${project.id}/metrics`,
    ]) {
      expect(await errorOf(await t.get(path, mine.key.secret)), path).toEqual({ status: 404, code: 'not_found' });
      expect((await t.get(path, theirs.key.secret)).status, path).toBe(200);
    }
    for (const path of [
      '/api/v1/clients',
      `/api/v1/reports?clientId=${report.clientId}`,
      `/api/v1/ai-visibility/projects?clientId=${project.clientId}`,
    ]) {
      expect((await json(await t.get(path, mine.key.secret))).meta.total, path).toBe(0);
    }
  });
});

describe('rate limit', () => {
  it(
    'lets exactly the bucket capacity (plus refill during the burst) through a ' +
      'concurrent burst, then 429 with Retry-After',
    async () => {
      const { key } = await createKeyedWorkspace(t.database, { plan: 'scale' });
      const started = Date.now();
      const responses = await Promise.all(Array.from({ length: 80 }, () => t.get('/api/v1/clients', key.secret)));
      const elapsedSeconds = (Date.now() - started) / 1000;
      const ok = responses.filter((r) => r.status === 200).length;
      expect(ok).toBeGreaterThanOrEqual(30);
      expect(ok).toBeLessThanOrEqual(30 + Math.ceil(elapsedSeconds * 1));
      const limited = responses.find((r) => r.status === 429)!;
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('ratelimit')).toMatch(/^"burst";r=0;t=\d+$/);
      expect((await json(limited)).error.code).toBe('rate_limited');
    },
  );
});

describe("a person's web-app sessions", () => {
  it('share one bucket however often the person signs in; another person keeps their own', async () => {
    const { workspace, ownerEmail } = await createKeyedWorkspace(t.database, { plan: 'scale' });
    await personWithPassword(t.database, { email: ownerEmail });
    const colleague = `colleague-${newId('user')}@example.com`;
    await personWithPassword(t.database, { email: colleague, workspaceId: workspace.id });
    const sessions = await Promise.all(Array.from({ length: 4 }, () => signIn(t.app, ownerEmail)));
    const started = Date.now();
    const query = (session: { cookie: string; csrf: string }) =>
      call(t.app, session, 'POST', '/graphql', { query: '{ clients { meta { total } } }' });
    // 4 sessions × 20: each its own bucket would let all 80 through.
    const responses = await Promise.all(
      sessions.flatMap((session) => Array.from({ length: 20 }, () => query(session))),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    const ok = responses.filter((response) => response.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(30);
    expect(ok).toBeLessThanOrEqual(30 + Math.ceil(elapsedSeconds * 1));
    expect((await query(await signIn(t.app, colleague))).status).toBe(200);
  });
});

describe('secrets at rest', () => {
  it('stores no secret in any column of the database', async () => {
    const { key } = await createKeyedWorkspace(t.database);
    await t.get('/api/v1/clients', key.secret);
    const { secretPart } = parseApiKey(key.secret)!;
    const columns = await t.database.pool.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const needles = [
      secretPart,
      Buffer.from(secretPart, 'base64url').toString('hex'),
      Buffer.from(secretPart, 'base64url').toString('base64'),
    ];
    for (const { table_name, column_name } of columns.rows) {
      const result = await t.database.pool.query(
        `SELECT count(*)::int AS n FROM "${table_name}" WHERE ${needles
          .map(
            (_, i) =>
              `encode(convert_to("${column_name}"::text, 'UTF8'), 'escape') LIKE $${i + 1}` +
              ` OR "${column_name}"::text LIKE $${i + 1}`,
          )
          .join(' OR ')}`,
        needles.map((needle) => `%${needle}%`),
      );
      expect(result.rows[0].n, `${table_name}.${column_name}`).toBe(0);
    }
  });
});
