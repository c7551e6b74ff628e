// Server-side sessions. The cookie carries a random token; the row's id is its SHA-256, so a
// leaked database does not hand out sessions. Idle and absolute expiry; membership is checked
// on every lookup, so removing a member ends their sessions' access at once.
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Plan, Role } from '../db/generated/prisma/enums.js';

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

export async function createSession(
  pool: pg.Pool,
  input: { userId: string; workspaceId: string; ssoWorkspaceId?: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_MAX_MS);
  await pool.query(
    `INSERT INTO sessions (id, user_id, workspace_id, expires_at, csrf_token, sso_workspace_id)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      sessionIdOf(token),
      input.userId,
      input.workspaceId,
      expiresAt,
      randomBytes(24).toString('base64url'),
      input.ssoWorkspaceId ?? null,
    ],
  );
  return { token, expiresAt };
}

/** The live session of a token, or null (unknown, idle too long, past its end, or no longer a member). */
export async function findSession(pool: pg.Pool, token: string, now = new Date()): Promise<SessionView | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const result = await pool.query<SessionView & { lastSeenAt: Date }>(
    `SELECT s.id, s.user_id AS "userId", u.email, u.name, s.workspace_id AS "workspaceId",
            w.slug AS "workspaceSlug", w.name AS "workspaceName", w.plan, w.timezone, m.role,
            s.csrf_token AS "csrfToken", s.expires_at AS "expiresAt", s.last_seen_at AS "lastSeenAt",
            s.sso_workspace_id AS "ssoWorkspaceId"
     FROM sessions s
     JOIN users u ON u.id = s.user_id
     JOIN workspaces w ON w.id = s.workspace_id
     JOIN memberships m ON m.user_id = s.user_id AND m.workspace_id = s.workspace_id
     WHERE s.id = $1`,
    [sessionIdOf(token)],
  );
  const row = result.rows[0];
  if (!row) return null;
  if (row.expiresAt <= now || row.lastSeenAt.getTime() + SESSION_IDLE_MS <= now.getTime()) {
    await pool.query('DELETE FROM sessions WHERE id = $1', [row.id]);
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS)
    await pool.query('UPDATE sessions SET last_seen_at = $2 WHERE id = $1', [row.id, now]);
  const session: SessionView & { lastSeenAt?: Date } = row;
  delete session.lastSeenAt;
  return session;
}

export async function deleteSession(pool: pg.Pool, token: string): Promise<void> {
  await pool.query('DELETE FROM sessions WHERE id = $1', [sessionIdOf(token)]);
}

/** Every other session of a person ends (password changed or reset). */
export async function deleteOtherSessions(pool: pg.Pool, userId: string, keepSessionId: string | null): Promise<void> {
  await pool.query('DELETE FROM sessions WHERE user_id = $1 AND ($2::text IS NULL OR id <> $2)', [
    userId,
    keepSessionId,
  ]);
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
  const result = await pool.query(
    `UPDATE sessions s SET workspace_id = w.id
     FROM workspaces w JOIN memberships m ON m.workspace_id = w.id AND m.user_id = $2
     WHERE s.id = $1 AND s.user_id = $2 AND w.slug = $3 AND (s.sso_workspace_id IS NULL OR s.sso_workspace_id = w.id)`,
    [sessionId, userId, slug],
  );
  return result.rowCount === 1;
}

/** The workspaces a session may act in: all of the person's, or only the one whose identity provider signed them in. */
export async function workspacesOf(
  pool: pg.Pool,
  session: Pick<SessionView, 'userId' | 'ssoWorkspaceId'>,
): Promise<{ id: string; slug: string; name: string; role: Role; plan: Plan }[]> {
  const result = await pool.query(
    `SELECT w.id, w.slug, w.name, m.role, w.plan FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = $1 AND ($2::text IS NULL OR w.id = $2) ORDER BY w.name, w.slug`,
    [session.userId, session.ssoWorkspaceId],
  );
  return result.rows;
}
