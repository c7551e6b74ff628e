// Signing in with a password: the attempt is reserved against the throttle before the password
// is even checked, "require SSO" is honoured, every outcome is audited, and the session is always
// a new one. A failure takes the same time for an unknown address as for a person: the same
// statements run (against an id no one has), the same argon2 verification (of a decoy hash), and
// the person's audit entry is written after the answer (its commit waits for the disk: 1-4 ms).
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import { recordPersonAudit } from '../audit/index.js';
import { clearAttempts, releaseAttempts, reserveAttempts } from '../db/attempt-counters.js';
import { runStatement, sqlStatement } from '../db/sql-runner.js';
import { createSession } from './session-store.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { ACCOUNT_ADDRESS_POLICY, ACCOUNT_POLICY, ADDRESS_POLICY, signInKeys, throttleVerdict } from './throttle.js';

const PERSON_BY_EMAIL = sqlStatement<{ id: string; password_hash: string | null }, { email: string }>(
  'sessions.person-by-email',
  (param) => `SELECT id, password_hash FROM users WHERE lower(email) = lower(${param('email')})`,
);

const WORKSPACE_REQUIRING_SSO = sqlStatement<{ slug: string }, { userId: string }>(
  'sessions.workspace-requiring-sso',
  (param) => `SELECT w.slug FROM users u
     JOIN memberships m ON m.user_id = u.id AND m.role <> 'owner'
     JOIN workspaces w ON w.id = m.workspace_id AND w.require_sso
     JOIN sso_domains d ON d.workspace_id = w.id AND d.verified_at IS NOT NULL
                       AND d.domain = lower(split_part(u.email, '@', 2))
     WHERE u.id = ${param('userId')} LIMIT 1`,
);

const MEMBERSHIPS_OF = sqlStatement<{ workspace_id: string; slug: string }, { userId: string }>(
  'sessions.memberships-of',
  (param) => `SELECT m.workspace_id, w.slug FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = ${param('userId')} ORDER BY m.created_at, w.slug`,
);

export interface SignInInput {
  email: string;
  password: string;
  address: string;
  workspaceSlug?: string | null;
}

/** The user id of an unknown address: no row has it, so its lookups find nothing. */
const NO_PERSON = '';

/** `later` runs work after the answer (http/after-answer.ts): writes only a person's failure has. */
export async function signIn(pool: pg.Pool, input: SignInInput, later: (work: () => Promise<unknown>) => void) {
  const keys = signInKeys(input.email, input.address);
  const states = await reserveAttempts(pool, [
    { key: keys.account, policy: ACCOUNT_POLICY },
    { key: keys.accountAddress, policy: ACCOUNT_ADDRESS_POLICY },
    { key: keys.address, policy: ADDRESS_POLICY },
  ]);
  const account = states.get(keys.account)!;
  const verdict = throttleVerdict(
    { account, accountAddress: states.get(keys.accountAddress)!, address: states.get(keys.address)! },
    new Date(),
  );
  const user = (await runStatement(pool, PERSON_BY_EMAIL, { email: input.email })).rows[0];
  const userId = user?.id ?? NO_PERSON;
  if (!verdict.allowed) {
    await releaseAttempts(pool, [keys.account, keys.accountAddress, keys.address]);
    // The attempt that starts the lock is recorded once.
    if (user && account.justExceeded)
      later(() =>
        recordPersonAudit(pool, {
          userId: user.id,
          action: 'session.account_locked',
          details: { address: input.address },
        }),
      );
    throw new ApiError('rate_limited', `Too many failed sign-ins; try again in ${verdict.retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
    });
  }

  // Before the password is checked, so that the answer never tells whether it was right.
  const ssoRequiredBy = await workspaceRequiringSso(pool, userId);
  if (ssoRequiredBy) {
    await releaseAttempts(pool, [keys.account, keys.accountAddress, keys.address]);
    throw new ApiError(
      'forbidden',
      `The workspace "${ssoRequiredBy}" requires single sign-on for your address: ` +
        `use "Continue with your company's sign-in".`,
    );
  }
  const valid = await verifyPassword(user?.password_hash ?? (await decoyHash()), input.password);
  if (!user || !user.password_hash || !valid) {
    if (user)
      later(() =>
        recordPersonAudit(pool, {
          userId: user.id,
          action: 'session.sign_in_failed',
          details: { address: input.address },
        }),
      );
    throw new ApiError('unauthenticated', 'Email or password is wrong.');
  }
  // A success is no failure: the account's counters start again, the address keeps only its failures.
  await clearAttempts(pool, [keys.account, keys.accountAddress]);
  await releaseAttempts(pool, [keys.address]);
  const session = await startSession(pool, user.id, input.workspaceSlug ?? null);
  await recordPersonAudit(pool, {
    userId: user.id,
    action: 'session.signed_in',
    details: { method: 'password', address: input.address },
  });
  return session;
}

/**
 * The slug of a workspace that requires single sign-on of this person, or null: a workspace with
 * "require SSO" on, where they are a member but not an owner (owners keep the password as the
 * way in when the identity provider fails) and their address is in one of its verified domains.
 */
async function workspaceRequiringSso(pool: pg.Pool, userId: string): Promise<string | null> {
  const result = await runStatement(pool, WORKSPACE_REQUIRING_SSO, { userId });
  return result.rows[0]?.slug ?? null;
}

/**
 * A new session in the asked-for workspace (or the person's first), after any kind of sign-in.
 * Through a workspace's identity provider the session is bound to that workspace for good.
 */
export async function startSession(
  pool: pg.Pool,
  userId: string,
  workspaceSlug: string | null,
  options: { ssoWorkspaceId?: string } = {},
) {
  const memberships = (await runStatement(pool, MEMBERSHIPS_OF, { userId })).rows;
  const chosen = options.ssoWorkspaceId
    ? memberships.find((membership) => membership.workspace_id === options.ssoWorkspaceId)
    : ((workspaceSlug ? memberships.find((membership) => membership.slug === workspaceSlug) : null) ?? memberships[0]);
  if (!chosen) throw new ApiError('forbidden', 'This account is not a member of any workspace.');
  return createSession(pool, {
    userId,
    workspaceId: chosen.workspace_id,
    ssoWorkspaceId: options.ssoWorkspaceId ?? null,
  });
}
