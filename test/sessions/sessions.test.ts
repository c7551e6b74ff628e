// Web-app sessions through the real app: password sign-in, the cookie's attributes, throttling,
// fixation, expiry, sign-out, picking a workspace, and /graphql with a session (CSRF included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { call, ORIGIN, PASSWORD, personWithPassword, sessionCookieOf, signIn } from '../support/web.js';

let t: TestApp;
let owner: Awaited<ReturnType<typeof createKeyedWorkspace>>;

const login = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.fetch(
    new Request(`${ORIGIN}/app/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
      body: JSON.stringify(body),
    }),
    { remoteAddress: '198.51.100.7' },
  );
const graphql = (cookie: string, query: string, headers: Record<string, string> = {}) =>
  t.app.fetch(
    new Request(`${ORIGIN}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...headers },
      body: JSON.stringify({ query }),
    }),
  );

beforeAll(async () => {
  t = await createTestApp();
  owner = await createKeyedWorkspace(t.database);
  await personWithPassword(t.database, { email: owner.ownerEmail });
});
afterAll(() => t.close());

describe('password sign-in', () => {
  it(
    'starts a server-side session behind an httpOnly SameSite=Lax cookie; ' + 'the password is stored as argon2id only',
    async () => {
      const response = await login({ email: owner.ownerEmail, password: PASSWORD });
      expect(response.status).toBe(200);
      const setCookie = response.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/^sb_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
      const session = await json(
        await t.app.fetch(new Request(`${ORIGIN}/app/session`, { headers: { cookie: sessionCookieOf(response)! } })),
      );
      expect(session.data).toMatchObject({
        user: { email: owner.ownerEmail },
        workspace: { slug: owner.workspace.slug },
        role: 'owner',
        csrfToken: expect.any(String),
      });
      const stored = await t.database.prisma.user.findUniqueOrThrow({ where: { email: owner.ownerEmail } });
      expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
      const row = await t.database.pool.query('SELECT id FROM sessions WHERE user_id = $1', [stored.id]);
      expect(row.rows.map((r) => r.id)).not.toContain(sessionCookieOf(response)!.split('=')[1]);
    },
  );

  it('in production the cookie is Secure with the __Host- prefix', async () => {
    const production = await createTestApp({ NODE_ENV: 'production', PUBLIC_BASE_URL: ORIGIN }, { url: t.url });
    try {
      const response = await production.app.fetch(
        new Request(`${ORIGIN}/app/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          body: JSON.stringify({ email: owner.ownerEmail, password: PASSWORD }),
        }),
      );
      expect(response.headers.get('set-cookie')).toMatch(
        /^__Host-sb_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/,
      );
    } finally {
      await production.close();
    }
  });

  it('a wrong password is 401 with one message for unknown accounts and wrong passwords alike', async () => {
    const wrong = await json(await login({ email: owner.ownerEmail, password: 'not the password' }));
    const unknown = await json(await login({ email: 'nobody@example.test', password: 'whatever it is' }));
    expect(wrong.error).toMatchObject({ code: 'unauthenticated', message: 'Email or password is wrong.' });
    // A person's failure is audited after the answer.
    const actions = async () =>
      (
        await t.database.prisma.auditLogEntry.findMany({
          where: { workspaceId: owner.workspace.id, action: { startsWith: 'session.' } },
        })
      ).map((entry) => entry.action);
    await expect.poll(actions).toEqual(expect.arrayContaining(['session.signed_in', 'session.sign_in_failed']));
    expect(unknown.error.message).toBe(wrong.error.message);
  });

  it('is throttled per account after 5 failures with a clear 429, even for the right password', async () => {
    const person = await personWithPassword(t.database, {
      email: `throttled-${Date.now()}@example.test`,
      workspaceId: owner.workspace.id,
    });
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await login({ email: person.email, password: 'wrong password!' })).status).toBe(401);
    const refused = await login({ email: person.email, password: PASSWORD });
    expect(refused.status).toBe(429);
    // The address that failed five times stays refused for this account until the window ends.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await json(refused)).error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/Too many failed sign-ins; try again in \d+ s/),
    });
  });

  it('is throttled per address (behind a trusted proxy, the last X-Forwarded-For hop) across accounts', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: 'true' }, { url: t.url });
    try {
      const attempt = (email: string, password: string, forwardedFor: string) =>
        proxied.app.fetch(
          new Request(`${ORIGIN}/app/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': forwardedFor },
            body: JSON.stringify({ email, password }),
          }),
          { remoteAddress: '10.0.0.1' },
        );
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          attempt(`spray-${index}@example.test`, 'guessed password', '1.2.3.4, 203.0.113.9').then((r) => r.status),
        ),
      );
      expect(statuses.every((status) => status === 401)).toBe(true);
      // The next try from that address is refused even for a real account; another address is not.
      expect((await attempt(owner.ownerEmail, PASSWORD, '9.9.9.9, 203.0.113.9')).status).toBe(429);
      expect((await attempt(owner.ownerEmail, PASSWORD, '203.0.113.10')).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it(
    'never keeps a session the browser came with (fixation): the cookie after sign-in ' +
      'is new and the old one is dead',
    async () => {
      const before = await signIn(t.app, owner.ownerEmail);
      const response = await login({ email: owner.ownerEmail, password: PASSWORD }, { cookie: before.cookie });
      const after = sessionCookieOf(response)!;
      expect(after).not.toBe(before.cookie);
      expect(
        (await t.app.fetch(new Request(`${ORIGIN}/app/session`, { headers: { cookie: before.cookie } }))).status,
      ).toBe(401);
      // An attacker-chosen token is never adopted either.
      const planted = `sb_session=${'A'.repeat(43)}`;
      const fresh = sessionCookieOf(await login({ email: owner.ownerEmail, password: PASSWORD }, { cookie: planted }))!;
      expect(fresh).not.toBe(planted);
    },
  );

  it('refuses a sign-in posted from another site', async () => {
    const response = await login({ email: owner.ownerEmail, password: PASSWORD }, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('a session', () => {
  it('ends at sign-out, after the idle timeout, and at its absolute end', async () => {
    const out = await signIn(t.app, owner.ownerEmail);
    const loggedOut = await call(t.app, out, 'POST', '/app/logout', {});
    expect(loggedOut.headers.get('set-cookie')).toMatch(/^sb_session=; .*Max-Age=0/);
    expect((await call(t.app, out, 'GET', '/app/session')).status).toBe(401);

    const idle = await signIn(t.app, owner.ownerEmail);
    await t.database.pool.query(
      `UPDATE sessions SET last_seen_at = now() - interval '13 hours'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [owner.ownerEmail],
    );
    expect((await call(t.app, idle, 'GET', '/app/session')).status).toBe(401);

    const old = await signIn(t.app, owner.ownerEmail);
    await t.database.pool.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [owner.ownerEmail],
    );
    expect((await call(t.app, old, 'GET', '/app/session')).status).toBe(401);
  });

  it('reads the graph of its active workspace; a person in several picks the active one', async () => {
    const other = await createKeyedWorkspace(t.database);
    await personWithPassword(t.database, { email: owner.ownerEmail, workspaceId: other.workspace.id, role: 'admin' });
    const auth = await signIn(t.app, owner.ownerEmail);
    const viewer = async () =>
      (await json(await graphql(auth.cookie, '{ viewer { workspace { slug } credential role } }'))).data.viewer;
    expect(await viewer()).toEqual({ workspace: { slug: owner.workspace.slug }, credential: 'SESSION', role: 'owner' });
    expect(
      (await call(t.app, auth, 'POST', '/app/session/workspace', { workspace: other.workspace.slug })).status,
    ).toBe(200);
    expect(await viewer()).toEqual({ workspace: { slug: other.workspace.slug }, credential: 'SESSION', role: 'admin' });
    const audited = await t.database.prisma.auditLogEntry.findFirst({
      where: { workspaceId: other.workspace.id, action: 'session.workspace_switched' },
    });
    expect(audited?.details).toEqual({ from: owner.workspace.slug, to: other.workspace.slug });
    // Not a member there: refused, the active workspace stays.
    const stranger = await createKeyedWorkspace(t.database);
    expect(
      (await call(t.app, auth, 'POST', '/app/session/workspace', { workspace: stranger.workspace.slug })).status,
    ).toBe(404);
    expect(
      (
        await call(
          t.app,
          auth,
          'POST',
          '/app/session/workspace',
          { workspace: owner.workspace.slug },
          { 'x-csrf-token': 'forged' },
        )
      ).status,
    ).toBe(403);
  });

  it(
    "/graphql with a session: Yoga's CSRF prevention refuses simple requests, a " + 'foreign Origin is refused',
    async () => {
      const auth = await signIn(t.app, owner.ownerEmail);
      const query = encodeURIComponent('{ viewer { credential } }');
      expect(
        (await t.app.fetch(new Request(`${ORIGIN}/graphql?query=${query}`, { headers: { cookie: auth.cookie } })))
          .status,
      ).toBe(403);
      expect(
        (
          await t.app.fetch(
            new Request(`${ORIGIN}/graphql?query=${query}`, {
              headers: { cookie: auth.cookie, 'x-graphql-yoga-csrf': '1' },
            }),
          )
        ).status,
      ).toBe(200);
      const form = await t.app.fetch(
        new Request(`${ORIGIN}/graphql`, {
          method: 'POST',
          headers: { cookie: auth.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: `query=${query}`,
        }),
      );
      expect(form.status).toBe(403);
      expect((await graphql(auth.cookie, '{ viewer { credential } }', { origin: 'https://evil.example' })).status).toBe(
        403,
      );
      expect(
        (await json(await graphql(auth.cookie, '{ viewer { credential } }', { origin: ORIGIN }))).data.viewer
          .credential,
      ).toBe('SESSION');
      // API keys are not ambient: no CSRF header needed, and the key wins over a cookie.
      const keyed = await t.app.fetch(
        new Request(`${ORIGIN}/graphql?query=${query}`, {
          headers: { authorization: `Bearer ${owner.key.secret}`, cookie: auth.cookie },
        }),
      );
      expect((await json(keyed)).data.viewer.credential).toBe('API_KEY');
    },
  );

  it('does not open v1, which stays API keys only', async () => {
    const auth = await signIn(t.app, owner.ownerEmail);
    expect(
      (await t.app.fetch(new Request(`${ORIGIN}/api/v1/clients`, { headers: { cookie: auth.cookie } }))).status,
    ).toBe(401);
  });
});
