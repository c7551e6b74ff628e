// Server-side sessions. The cookie carries a random token; the row's id is its SHA-256, so a
// leaked database does not hand out sessions. Idle and absolute expiry; membership is checked
// on every lookup, so removing a member ends their sessions' access at once.
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Plan, Role } from '../db/generated/prisma/enums.js';
import { runStatement, sqlStatement } from '../db/sql-runner.js';

export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_MAX_MS = 7 * 24 * 3_600_000;
// lastSeenAt is written at most this often, not on every request.
const TOUCH_EVERY_MS = 60_000;

export interface SessionView {
  id: string;
  userId: string;
  email: string;
  name: string;
  workspaceId: string;
  workspaceSlug: string;
  workspaceName: string;
  plan: Plan;
  timezone: string;
  role: Role;
  csrfToken: string;
  expiresAt: Date;
  /** Set when signed in through this workspace's identity provider: no switching out of it. */
  ssoWorkspaceId: string | null;
}

export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

const CREATE_SESSION = sqlStatement<
  never,
  { id: string; userId: string; workspaceId: string; expiresAt: Date; csrfToken: string; ssoWorkspaceId: string | null }
>(
  'sessions.create',
  (param) => `INSERT INTO sessions (id, user_id, workspace_id, expires_at, csrf_token, sso_workspace_id)
     VALUES (${param('id')}, ${param('userId')}, ${param('workspaceId')}, ${param('expiresAt')}, ${param('csrfToken')},
             ${param('ssoWorkspaceId')})`,
);

const FIND_SESSION = sqlStatement<SessionView & { lastSeenAt: Date }, { id: string }>(
  'sessions.find',
  (param) => `SELECT s.id, s.user_id AS "userId", u.email, u.name, s.workspace_id AS "workspaceId",
            w.slug AS "workspaceSlug", w.name AS "workspaceName", w.plan, w.timezone, m.role,
            s.csrf_token AS "csrfToken", s.expires_at AS "expiresAt", s.last_seen_at AS "lastSeenAt",
            s.sso_workspace_id AS "ssoWorkspaceId"
     FROM sessions s
     JOIN users u ON u.id = s.user_id
     JOIN workspaces w ON w.id = s.workspace_id
     JOIN memberships m ON m.user_id = s.user_id AND m.workspace_id = s.workspace_id
     WHERE s.id = ${param('id')}`,
);

const DELETE_SESSION = sqlStatement<never, { id: string }>(
  'sessions.delete',
  (param) => `DELETE FROM sessions WHERE id = ${param('id')}`,
);

const TOUCH_SESSION = sqlStatement<never, { id: string; now: Date }>(
  'sessions.touch',
  (param) => `UPDATE sessions SET last_seen_at = ${param('now')} WHERE id = ${param('id')}`,
);

const DELETE_OTHER_SESSIONS = sqlStatement<never, { userId: string; keepSessionId: string | null }>(
  'sessions.delete-others',
  (param) =>
    `DELETE FROM sessions WHERE user_id = ${param('userId')}
      AND (${param('keepSessionId')}::text IS NULL OR id <> ${param('keepSessionId')})`,
);

const SWITCH_WORKSPACE = sqlStatement<never, { sessionId: string; userId: string; slug: string }>(
  'sessions.switch-workspace',
  (param) => `UPDATE sessions s SET workspace_id = w.id
     FROM workspaces w JOIN memberships m ON m.workspace_id = w.id AND m.user_id = ${param('userId')}
     WHERE s.id = ${param('sessionId')} AND s.user_id = ${param('userId')} AND w.slug = ${param('slug')}
       AND (s.sso_workspace_id IS NULL OR s.sso_workspace_id = w.id)`,
);

type SessionWorkspace = { id: string; slug: string; name: string; role: Role; plan: Plan };

const WORKSPACES_OF = sqlStatement<SessionWorkspace, { userId: string; onlyWorkspaceId: string | null }>(
  'sessions.workspaces-of',
  (param) => `SELECT w.id, w.slug, w.name, m.role, w.plan FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = ${param('userId')}
        AND (${param('onlyWorkspaceId')}::text IS NULL OR w.id = ${param('onlyWorkspaceId')})
      ORDER BY w.name, w.slug`,
);

export async function createSession(
  pool: pg.Pool,
  input: { userId: string; workspaceId: string; ssoWorkspaceId?: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_MAX_MS);
  await runStatement(pool, CREATE_SESSION, {
    id: sessionIdOf(token),
    userId: input.userId,
    workspaceId: input.workspaceId,
    expiresAt,
    csrfToken: randomBytes(24).toString('base64url'),
    ssoWorkspaceId: input.ssoWorkspaceId ?? null,
  });
  return { token, expiresAt };
}

/** The live session of a token, or null (unknown, idle too long, past its end, or no longer a member). */
export async function findSession(pool: pg.Pool, token: string, now = new Date()): Promise<SessionView | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = (await runStatement(pool, FIND_SESSION, { id: sessionIdOf(token) })).rows[0];
  if (!row) return null;
  if (row.expiresAt <= now || row.lastSeenAt.getTime() + SESSION_IDLE_MS <= now.getTime()) {
    await runStatement(pool, DELETE_SESSION, { id: row.id });
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS)
    await runStatement(pool, TOUCH_SESSION, { id: row.id, now });
  const session: SessionView & { lastSeenAt?: Date } = row;
  delete session.lastSeenAt;
  return session;
}

export async function deleteSession(pool: pg.Pool, token: string): Promise<void> {
  await runStatement(pool, DELETE_SESSION, { id: sessionIdOf(token) });
}

/** Every other session of a person ends (password changed or reset). */
export async function deleteOtherSessions(pool: pg.Pool, userId: string, keepSessionId: string | null): Promise<void> {
  await runStatement(pool, DELETE_OTHER_SESSIONS, { userId, keepSessionId });
}

/**
 * Makes another workspace of the same person active; false when they are not a member of it,
 * or when the session came through a workspace's identity provider and the target is another one.
 */
export async function switchWorkspace(
  pool: pg.Pool,
  sessionId: string,
  userId: string,
  slug: string,
): Promise<boolean> {
  const result = await runStatement(pool, SWITCH_WORKSPACE, { sessionId, userId, slug });
  return result.rowCount === 1;
}

/** The workspaces a session may act in: all of the person's, or only the one whose identity provider signed them in. */
export async function workspacesOf(
  pool: pg.Pool,
  session: Pick<SessionView, 'userId' | 'ssoWorkspaceId'>,
): Promise<SessionWorkspace[]> {
  const { rows } = await runStatement(pool, WORKSPACES_OF, {
    userId: session.userId,
    onlyWorkspaceId: session.ssoWorkspaceId,
  });
  return rows;
}
