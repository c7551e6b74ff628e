// Signing in with a password: throttled per account and per address before the password is
// even checked, equally slow for unknown accounts, and a fresh session every time.
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import { createSession } from './session-store.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { accountKey, ACCOUNT_POLICY, ADDRESS_POLICY, addressKey, clearFailures, recordFailure, retryAfterSeconds, throttleStates } from './throttle.js';

export interface SignInInput {
  email: string;
  password: string;
  address: string;
  workspaceSlug?: string | null;
}

export async function signIn(pool: pg.Pool, input: SignInInput) {
  const account = accountKey(input.email);
  const address = addressKey(input.address);
  const states = await throttleStates(pool, [account, address]);
  const wait = Math.max(retryAfterSeconds(states.get(account) ?? null, ACCOUNT_POLICY, new Date()), retryAfterSeconds(states.get(address) ?? null, ADDRESS_POLICY, new Date()));
  if (wait > 0) throw new ApiError('rate_limited', `Too many failed sign-ins; try again in ${wait} s.`, { headers: { 'Retry-After': String(wait) } });

  const user = (await pool.query<{ id: string; password_hash: string | null }>('SELECT id, password_hash FROM users WHERE lower(email) = lower($1)', [input.email])).rows[0];
  const valid = await verifyPassword(user?.password_hash ?? (await decoyHash()), input.password);
  if (!user || !user.password_hash || !valid) {
    await recordFailure(pool, [{ key: account, policy: ACCOUNT_POLICY }, { key: address, policy: ADDRESS_POLICY }]);
    throw new ApiError('unauthenticated', 'Email or password is wrong.');
  }
  await clearFailures(pool, account);
  return startSession(pool, user.id, input.workspaceSlug ?? null);
}

/** A new session in the asked-for workspace (or the person's first), after any kind of sign-in. */
export async function startSession(pool: pg.Pool, userId: string, workspaceSlug: string | null) {
  const memberships = (await pool.query<{ workspace_id: string; slug: string }>(
    'SELECT m.workspace_id, w.slug FROM memberships m JOIN workspaces w ON w.id = m.workspace_id WHERE m.user_id = $1 ORDER BY m.created_at, w.slug',
    [userId],
  )).rows;
  const chosen = (workspaceSlug ? memberships.find((membership) => membership.slug === workspaceSlug) : null) ?? memberships[0];
  if (!chosen) throw new ApiError('forbidden', 'This account is not a member of any workspace.');
  return createSession(pool, { userId, workspaceId: chosen.workspace_id });
}
