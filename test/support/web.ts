// Signing in to the web app in tests, the way a browser or a JSON client does.
import type { Database } from '../../src/db/client.js';
import type { App } from '../../src/app.js';
import { newId } from '../../src/db/ids.js';
import { hashPassword } from '../../src/sessions/passwords.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, json, type TestApp } from './app.js';

export const PASSWORD = 'correct horse battery staple';
export const ORIGIN = 'http://test.local';

/** Gives an existing user a password, or creates a member of the workspace with one. */
export async function personWithPassword(
  database: Database,
  input: { email: string; workspaceId?: string; role?: 'owner' | 'admin' | 'member' },
) {
  const passwordHash = await hashPassword(PASSWORD);
  const existing = await database.prisma.user.findUnique({ where: { email: input.email } });
  const user = existing
    ? await database.prisma.user.update({ where: { id: existing.id }, data: { passwordHash } })
    : await database.prisma.user.create({
        data: { id: newId('user'), email: input.email, name: input.email.split('@')[0]!, passwordHash },
      });
  if (
    input.workspaceId &&
    !(await database.prisma.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: user.id } },
    }))
  ) {
    await database.prisma.membership.create({
      data: { id: newId('membership'), workspaceId: input.workspaceId, userId: user.id, role: input.role ?? 'member' },
    });
  }
  return user;
}

/** The name=value of the Set-Cookie header's session cookie, ready to send back. */
export function sessionCookieOf(response: Response): string | null {
  const header =
    response.headers.getSetCookie?.().find((cookie) => /^(__Host-)?sb_session=/.test(cookie)) ??
    response.headers.get('set-cookie');
  return header ? header.split(';')[0]! : null;
}

export async function signIn(
  app: App,
  email: string,
  password = PASSWORD,
  headers: Record<string, string> = {},
): Promise<{ cookie: string; csrf: string }> {
  const response = await app.fetch(
    new Request(`${ORIGIN}/app/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
      body: JSON.stringify({ email, password }),
    }),
  );
  if (response.status !== 200) throw new Error(`sign-in failed with ${response.status}: ${await response.text()}`);
  const cookie = sessionCookieOf(response)!;
  const session = (await (await app.fetch(new Request(`${ORIGIN}/app/session`, { headers: { cookie } }))).json()) as {
    data: { csrfToken: string };
  };
  return { cookie, csrf: session.data.csrfToken };
}

/** A same-origin JSON call with the session and its CSRF token. */
export function call(
  app: App,
  auth: { cookie: string; csrf: string },
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return app.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: {
        cookie: auth.cookie,
        origin: ORIGIN,
        'x-csrf-token': auth.csrf,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

/** A workspace with three days of demo data on one client, its owner able to sign in, and its first report's id. */
export async function seededOwner(t: TestApp) {
  const keyed = await createKeyedWorkspace(t.database);
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 3, clients: 1 });
  await personWithPassword(t.database, { email: keyed.ownerEmail });
  const reportId: string = (await json(await t.get('/api/v1/reports', keyed.key.secret))).data[0].id;
  return { ...keyed, reportId };
}
