// Forgotten passwords through a real SMTP server in the test process (smtp-server): one answer
// for every address, a single-use 30-minute link, every other session ended by a new password;
// and "require SSO" refusing password sign-in to members in a verified domain (owners excepted).
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { freePort } from '../support/global-setup.js';
import { call, ORIGIN, PASSWORD, personWithPassword, signIn } from '../support/web.js';
import { statementsDuring } from '../support/sql-count.js';

const inbox: { to: string; text: string }[] = [];
/** While set, the SMTP server takes messages but does not acknowledge them: a mail in flight. */
let mailHeld: Promise<void> | null = null;
let smtp: SMTPServer;
let t: TestApp;
let workspaceId: string;

beforeAll(async () => {
  const port = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      stream.on('end', () => {
        void (mailHeld ?? Promise.resolve()).then(() => {
          inbox.push({ to: session.envelope.rcptTo.map((address) => address.address).join(','), text });
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_BASE_URL: ORIGIN });
  workspaceId = (await createKeyedWorkspace(t.database)).workspace.id;
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const post = (path: string, body: unknown, address = '198.51.100.40') =>
  t.app.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify(body),
    }),
    { remoteAddress: address },
  );
// The mail body is quoted-printable: soft line breaks and =3D for '=' are undone first.
const tokenIn = (text: string) =>
  /\/app\/password\/reset\?token=([A-Za-z0-9_-]+)/.exec(text.replace(/=\r?\n/g, '').replace(/=3D/g, '='))![1]!;

describe('forgot password', () => {
  it(
    'answers the same for unknown addresses and sends nothing; for a person, mails a ' +
      'single-use link that ends their other sessions',
    async () => {
      const unknown = await post('/app/password/forgot', { email: 'nobody@example.test' });
      const person = await personWithPassword(t.database, { email: `reset-${Date.now()}@example.test`, workspaceId });
      const other = await signIn(t.app, person.email);
      const known = await post('/app/password/forgot', { email: person.email });
      expect(unknown.status).toBe(202);
      expect(known.status).toBe(202);
      expect(await unknown.text()).toBe(await known.text());
      await expect.poll(() => inbox.filter((mail) => mail.to === person.email).length).toBe(1);
      expect(inbox.some((mail) => mail.to === 'nobody@example.test')).toBe(false);
      const token = tokenIn(inbox.find((mail) => mail.to === person.email)!.text);

      const stored = await t.database.pool.query('SELECT id FROM password_resets WHERE user_id = $1', [person.id]);
      expect(stored.rows[0].id).not.toBe(token);
      expect((await post('/app/password/reset', { token, password: 'short' })).status).toBe(400);
      const reset = await post('/app/password/reset', { token, password: 'a brand new password 42' });
      expect(reset.status).toBe(200);
      // Used once; the other session is over; the new password works and the old one does not.
      expect((await post('/app/password/reset', { token, password: 'another new password 43' })).status).toBe(400);
      expect((await call(t.app, other, 'GET', '/app/session')).status).toBe(401);
      expect((await post('/app/login', { email: person.email, password: 'a brand new password 42' })).status).toBe(200);
      expect((await post('/app/login', { email: person.email, password: PASSWORD }, '198.51.100.41')).status).toBe(401);
      const audit = await t.database.prisma.auditLogEntry.findMany({
        where: { workspaceId, actor: person.id, action: { startsWith: 'password.' } },
        orderBy: { createdAt: 'asc' },
      });
      expect(audit.map((entry) => entry.action)).toEqual(['password.reset_requested', 'password.reset']);
    },
  );

  it('a link expires after 30 minutes, and only the newest link works', async () => {
    const person = await personWithPassword(t.database, { email: `expiry-${Date.now()}@example.test`, workspaceId });
    // Mail goes after the answer: each link is awaited so the inbox's order is the requests'.
    await post('/app/password/forgot', { email: person.email });
    await expect.poll(() => inbox.filter((mail) => mail.to === person.email).length).toBe(1);
    await post('/app/password/forgot', { email: person.email });
    await expect.poll(() => inbox.filter((mail) => mail.to === person.email).length).toBe(2);
    const [first, second] = inbox.filter((mail) => mail.to === person.email).map((mail) => tokenIn(mail.text));
    expect((await post('/app/password/reset', { token: first, password: 'a brand new password 42' })).status).toBe(400);
    await t.database.pool.query(
      "UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [person.id],
    );
    expect((await post('/app/password/reset', { token: second, password: 'a brand new password 42' })).status).toBe(
      400,
    );
  });

  it('changing the password needs the current one and ends every other session', async () => {
    const person = await personWithPassword(t.database, { email: `change-${Date.now()}@example.test`, workspaceId });
    const mine = await signIn(t.app, person.email);
    const other = await signIn(t.app, person.email);
    expect(
      (
        await call(t.app, mine, 'POST', '/app/password', {
          currentPassword: 'wrong',
          password: 'a brand new password 42',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(t.app, mine, 'POST', '/app/password', {
          currentPassword: PASSWORD,
          password: 'a brand new password 42',
        })
      ).status,
    ).toBe(200);
    expect((await call(t.app, mine, 'GET', '/app/session')).status).toBe(200);
    expect((await call(t.app, other, 'GET', '/app/session')).status).toBe(401);
  });
});

describe('the same work for every address', () => {
  // Statement texts with their parameters left out: the same list means the same work in the
  // database. Work after an answer starts on setImmediate and runs on the primary pool; it is let
  // finish before the next request's statements are collected.
  const settled = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await expect.poll(() => t.database.pool.totalCount - t.database.pool.idleCount).toBe(0);
  };
  const work = async (request: () => Promise<Response>) => {
    const statements = await statementsDuring(async () => (await request()).arrayBuffer());
    await settled();
    return statements;
  };

  it(
    'forgot-password runs the same statements for a person and an unknown address, ' +
      'and answers before the link and the mail',
    async () => {
      const person = await personWithPassword(t.database, { email: `same-${Date.now()}@example.test`, workspaceId });
      let release!: () => void;
      mailHeld = new Promise((resolve) => (release = resolve));
      try {
        const known = await work(() => post('/app/password/forgot', { email: person.email }, '198.51.100.60'));
        const unknown = await work(() =>
          post('/app/password/forgot', { email: `nobody-${Date.now()}@example.test` }, '198.51.100.61'),
        );
        expect(known).toEqual(unknown);
        expect(known.length).toBeGreaterThan(0);
        // The answer came while the mail server still held the message.
        expect(inbox.some((mail) => mail.to === person.email)).toBe(false);
      } finally {
        release();
        mailHeld = null;
      }
      await expect.poll(() => inbox.some((mail) => mail.to === person.email)).toBe(true);
    },
  );

  it('a failed sign-in runs the same statements for a person (wrong password) and an unknown address', async () => {
    const person = await personWithPassword(t.database, { email: `login-${Date.now()}@example.test`, workspaceId });
    const wrong = await work(() =>
      post('/app/login', { email: person.email, password: 'not the password at all' }, '198.51.100.62'),
    );
    const unknown = await work(() =>
      post(
        '/app/login',
        { email: `nobody-${Date.now()}@example.test`, password: 'not the password at all' },
        '198.51.100.63',
      ),
    );
    expect(wrong).toEqual(unknown);
    // The person's failure is audited all the same, after the answer.
    await expect
      .poll(async () =>
        t.database.prisma.auditLogEntry.count({ where: { actor: person.id, action: 'session.sign_in_failed' } }),
      )
      .toBe(1);
  });
});

describe('require SSO', () => {
  it(
    'refuses password sign-in to members in a verified domain, not to owners, and not ' +
      'to addresses outside the domains',
    async () => {
      const keyed = await createKeyedWorkspace(t.database, { plan: 'pro' });
      const domain = `strict-${Date.now()}.test`;
      await t.database.pool.query(
        `INSERT INTO sso_domains (id, workspace_id, domain, verification_token, verified_at)
       VALUES ($1, $2, $3, 'x', now())`,
        [`dom_${Date.now()}`, keyed.workspace.id, domain],
      );
      const owner = await personWithPassword(t.database, {
        email: `boss@${domain}`,
        workspaceId: keyed.workspace.id,
        role: 'owner',
      });
      const member = await personWithPassword(t.database, {
        email: `worker@${domain}`,
        workspaceId: keyed.workspace.id,
      });
      const outsider = await personWithPassword(t.database, {
        email: `guest-${Date.now()}@example.test`,
        workspaceId: keyed.workspace.id,
      });
      await personWithPassword(t.database, { email: keyed.ownerEmail });
      const admin = await signIn(t.app, keyed.ownerEmail);
      expect((await call(t.app, admin, 'POST', '/app/settings/sso/require', { requireSso: true })).status).toBe(200);

      const refused = await post('/app/login', { email: member.email, password: PASSWORD }, '198.51.100.50');
      expect(refused.status).toBe(403);
      expect((await json(refused)).error.message).toMatch(/requires single sign-on/);
      // The same answer whatever the password: it says nothing about whether it was right.
      expect(
        (await post('/app/login', { email: member.email, password: 'not the password' }, '198.51.100.50')).status,
      ).toBe(403);
      expect((await post('/app/login', { email: owner.email, password: PASSWORD }, '198.51.100.50')).status).toBe(200);
      expect((await post('/app/login', { email: outsider.email, password: PASSWORD }, '198.51.100.50')).status).toBe(
        200,
      );
      expect((await call(t.app, admin, 'POST', '/app/settings/sso/require', { requireSso: false })).status).toBe(200);
      expect((await post('/app/login', { email: member.email, password: PASSWORD }, '198.51.100.50')).status).toBe(200);
    },
  );
});
