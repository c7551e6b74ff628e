// Sign-in throttling. Three counters, reserved before the password is checked (see
// db/attempt-counters.ts), so no number of parallel requests checks more than the limit:
// - per account: 5 checked failures per 15 minutes; the 6th attempt starts a short account lock
//   (5 minutes) during which nobody, from any address, is checked, the right password included;
// - per account and address: 5 per 15 minutes, so after the short lock an address that has
//   failed for this account stays refused until its window ends, while an address that has not
//   failed may try (a stranger can lock a person out for the short lock only);
// - per address: 50 per 15 minutes over all accounts (password spraying).
// Attempts refused here are given back, so only checked passwords count.
import type { CounterPolicy, CounterState } from '../db/attempt-counters.js';

export const ACCOUNT_POLICY: CounterPolicy = { limit: 5, windowMs: 15 * 60_000 };
export const ACCOUNT_ADDRESS_POLICY: CounterPolicy = { limit: 5, windowMs: 15 * 60_000 };
export const ADDRESS_POLICY: CounterPolicy = { limit: 50, windowMs: 15 * 60_000 };
export const ACCOUNT_LOCK_MS = 5 * 60_000;

/** The account's own counter (what its short lock is about). */
export const accountKeyOf = (email: string) => `signin:account:${email.trim().toLowerCase()}`;

export const signInKeys = (email: string, address: string) => {
  const account = email.trim().toLowerCase();
  return {
    account: accountKeyOf(email),
    accountAddress: `signin:account-address:${account}|${address}`,
    address: `signin:address:${address}`,
  };
};

export type SignInKeys = ReturnType<typeof signInKeys>;

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; accountLocked: boolean };

const secondsUntil = (at: number, now: Date) => Math.max(1, Math.ceil((at - now.getTime()) / 1000));

/** Whether this attempt may be checked, from the counters it reserved (its own attempt counted). Pure. */
export function throttleVerdict(
  states: { account: CounterState; accountAddress: CounterState; address: CounterState },
  now: Date,
): ThrottleVerdict {
  const { account, accountAddress, address } = states;
  if (address.count > ADDRESS_POLICY.limit)
    return {
      allowed: false,
      retryAfterSeconds: secondsUntil(address.windowEndsAt.getTime(), now),
      accountLocked: false,
    };
  if (accountAddress.count > ACCOUNT_ADDRESS_POLICY.limit)
    return {
      allowed: false,
      retryAfterSeconds: secondsUntil(accountAddress.windowEndsAt.getTime(), now),
      accountLocked: false,
    };
  if (account.count <= ACCOUNT_POLICY.limit) return { allowed: true };
  const lockEnds = (account.exceededAt ?? now).getTime() + ACCOUNT_LOCK_MS;
  if (lockEnds > now.getTime())
    return { allowed: false, retryAfterSeconds: secondsUntil(lockEnds, now), accountLocked: true };
  // After the short lock: only an address that has not failed for this account.
  if (accountAddress.count === 1) return { allowed: true };
  return {
    allowed: false,
    retryAfterSeconds: secondsUntil(accountAddress.windowEndsAt.getTime(), now),
    accountLocked: false,
  };
}
