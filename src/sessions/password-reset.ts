// Forgotten and changed passwords. A reset link carries a random token; only its SHA-256 is
// stored, it works once (consumed in the same statement that checks it) and for 30 minutes.
// Asking for a link always gets the same answer, in the same time, whether or not the address
// has an account: the request only counts it against the limits (the same work for every
// address); the lookup, the link and the mail come after the answer (doors/sessions.ts, with
// http/after-answer.ts), so neither a person's writes nor the mail server show in its timing.
// A new password, by reset or change, ends every other session of the person.
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import { recordPersonAudit } from '../audit/index.js';
import { clearAttempts, reserveAttempts, type CounterPolicy } from '../db/attempt-counters.js';
import type { Mail } from '../mail/mailer.js';
import { runStatement, sqlStatement } from '../db/sql-runner.js';
import { RESET_PASSWORD_PATH } from './paths.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { deleteOtherSessions } from './session-store.js';
import { accountKeyOf } from './throttle.js';

export const RESET_TTL_MS = 30 * 60_000;
// Mail is a cost and a nuisance: a few links per address and per caller an hour.
const PER_ACCOUNT: CounterPolicy = { limit: 3, windowMs: 3_600_000 };
const PER_CALLER: CounterPolicy = { limit: 20, windowMs: 3_600_000 };

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ResetLink {
  to: string;
  token: string;
}

/**
 * Counts the request against the address's and the caller's limits; true when a link may be sent. The same work for
 * every address.
 */
export async function reservePasswordReset(pool: pg.Pool, input: { email: string; address: string }): Promise<boolean> {
  const accountKey = `reset:account:${input.email.trim().toLowerCase()}`;
  const callerKey = `reset:address:${input.address}`;
  const counts = await reserveAttempts(pool, [
    { key: accountKey, policy: PER_ACCOUNT },
    { key: callerKey, policy: PER_CALLER },
  ]);
  return counts.get(accountKey)!.count <= PER_ACCOUNT.limit && counts.get(callerKey)!.count <= PER_CALLER.limit;
}

// Replaces the person's unused links with one new link, in one statement.
const ISSUE_RESET = sqlStatement<{ id: string; email: string }, { email: string; resetId: string; expiresAt: Date }>(
  'sessions.issue-reset',
  (param) => `WITH person AS (SELECT id, email FROM users WHERE lower(email) = ${param('email')}),
     older AS (DELETE FROM password_resets r USING person WHERE r.user_id = person.id AND r.used_at IS NULL),
     link AS (INSERT INTO password_resets (id, user_id, expires_at)
              SELECT ${param('resetId')}, person.id, ${param('expiresAt')} FROM person)
     SELECT id, email FROM person`,
);

const SPEND_RESET = sqlStatement<{ user_id: string; email: string }, { resetId: string }>(
  'sessions.spend-reset',
  (param) => `UPDATE password_resets r SET used_at = now() FROM users u
     WHERE r.id = ${param('resetId')} AND r.used_at IS NULL AND r.expires_at > now() AND u.id = r.user_id
     RETURNING r.user_id, u.email`,
);

const PASSWORD_HASH = sqlStatement<{ password_hash: string | null }, { userId: string }>(
  'sessions.password-hash',
  (param) => `SELECT password_hash FROM users WHERE id = ${param('userId')}`,
);

const SET_PASSWORD = sqlStatement<never, { userId: string; passwordHash: string }>(
  'sessions.set-password',
  (param) => `UPDATE users SET password_hash = ${param('passwordHash')} WHERE id = ${param('userId')}`,
);

/**
 * Replaces the person's link with a new one (only the newest works) and audits it; null when the address has no
 * account.
 */
export async function issueResetLink(
  pool: pg.Pool,
  input: { email: string; address: string },
): Promise<ResetLink | null> {
  const token = randomBytes(32).toString('base64url');
  const person = (
    await runStatement(pool, ISSUE_RESET, {
      email: input.email.trim().toLowerCase(),
      resetId: digest(token),
      expiresAt: new Date(Date.now() + RESET_TTL_MS),
    })
  ).rows[0];
  if (!person) return null;
  await recordPersonAudit(pool, {
    userId: person.id,
    action: 'password.reset_requested',
    details: { address: input.address },
  });
  return { to: person.email, token };
}

/** Where the person sets a new password with the link's token. */
export const resetUrl = (origin: string, link: ResetLink) => `${origin}${RESET_PASSWORD_PATH}?token=${link.token}`;

export const resetMail = (origin: string, link: ResetLink): Mail => ({
  to: link.to,
  subject: 'Reset your Signalboard password',
  text:
    `Someone (hopefully you) asked to reset the password of ${link.to}.\n\n` +
    `Set a new one within 30 minutes:\n${resetUrl(origin, link)}\n\n` +
    'If it was not you, ignore this mail: your password stays as it is.\n',
});

/** Sets a new password with a reset token; the token is spent even if it is tried twice at once. */
export async function resetPassword(
  pool: pg.Pool,
  input: { token: string; password: string },
): Promise<{ userId: string }> {
  const problem = passwordProblem(input.password);
  if (problem)
    throw new ApiError('invalid_parameter', `The new password is refused: ${problem}.`, { param: 'password' });
  const spent = await runStatement(pool, SPEND_RESET, { resetId: digest(input.token) });
  const row = spent.rows[0];
  if (!row)
    throw new ApiError('invalid_parameter', 'This reset link is unknown, used or expired; ask for a new one.', {
      param: 'token',
    });
  await setPassword(pool, row.user_id, input.password, null);
  // Whoever locked the account out no longer keeps its owner out.
  await clearAttempts(pool, [accountKeyOf(row.email)]);
  await recordPersonAudit(pool, { userId: row.user_id, action: 'password.reset' });
  return { userId: row.user_id };
}

export async function changePassword(
  pool: pg.Pool,
  session: { id: string; userId: string },
  input: { current: string; password: string },
): Promise<void> {
  const stored = (await runStatement(pool, PASSWORD_HASH, { userId: session.userId })).rows[0];
  if (!stored?.password_hash || !(await verifyPassword(stored.password_hash, input.current)))
    throw new ApiError('forbidden', 'The current password is wrong.');
  const problem = passwordProblem(input.password);
  if (problem)
    throw new ApiError('invalid_parameter', `The new password is refused: ${problem}.`, { param: 'password' });
  await setPassword(pool, session.userId, input.password, session.id);
  await recordPersonAudit(pool, { userId: session.userId, action: 'password.changed' });
}

async function setPassword(pool: pg.Pool, userId: string, password: string, keepSessionId: string | null) {
  await runStatement(pool, SET_PASSWORD, { userId, passwordHash: await hashPassword(password) });
  await deleteOtherSessions(pool, userId, keepSessionId);
}
