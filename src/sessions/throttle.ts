// Sign-in throttling per account and per address, in PostgreSQL so every instance shares it.
// A fixed window: after `limit` failures the key is refused until its window ends.
import type pg from 'pg';

export interface ThrottlePolicy {
  limit: number;
  windowMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = { limit: 5, windowMs: 15 * 60_000 };
export const ADDRESS_POLICY: ThrottlePolicy = { limit: 50, windowMs: 15 * 60_000 };

export interface ThrottleState {
  failures: number;
  windowStartedAt: Date;
}

/** Seconds until the key may try again, or 0 when it may now. Pure. */
export function retryAfterSeconds(state: ThrottleState | null, policy: ThrottlePolicy, now: Date): number {
  if (!state) return 0;
  const windowEnds = state.windowStartedAt.getTime() + policy.windowMs;
  if (windowEnds <= now.getTime() || state.failures < policy.limit) return 0;
  return Math.ceil((windowEnds - now.getTime()) / 1000);
}

export const accountKey = (email: string) => `account:${email.toLowerCase()}`;
export const addressKey = (address: string) => `address:${address}`;

export async function throttleStates(pool: pg.Pool, keys: readonly string[]): Promise<Map<string, ThrottleState>> {
  const result = await pool.query<{ key: string; failures: number; window_started_at: Date }>('SELECT key, failures, window_started_at FROM login_throttle WHERE key = ANY($1::text[])', [keys]);
  return new Map(result.rows.map((row) => [row.key, { failures: row.failures, windowStartedAt: row.window_started_at }]));
}

/** One more failure for each key; a key whose window has passed starts a new one. */
export async function recordFailure(pool: pg.Pool, entries: readonly { key: string; policy: ThrottlePolicy }[]): Promise<void> {
  for (const { key, policy } of entries) {
    await pool.query(
      `INSERT INTO login_throttle (key, failures, window_started_at) VALUES ($1, 1, now())
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN login_throttle.window_started_at + make_interval(secs => $2) <= now() THEN 1 ELSE login_throttle.failures + 1 END,
         window_started_at = CASE WHEN login_throttle.window_started_at + make_interval(secs => $2) <= now() THEN now() ELSE login_throttle.window_started_at END`,
      [key, policy.windowMs / 1000],
    );
  }
}

export async function clearFailures(pool: pg.Pool, key: string): Promise<void> {
  await pool.query('DELETE FROM login_throttle WHERE key = $1', [key]);
}
