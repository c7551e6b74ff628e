// Fixed-window attempt counters in PostgreSQL, shared by every instance. An attempt is reserved
// BEFORE the work it guards (a password check, a client registration), in one statement per
// batch of keys (INSERT … ON CONFLICT DO UPDATE … RETURNING), so the limit holds under any
// concurrency: the row lock serialises the increments and each caller sees its own count.
import { runStatement, sqlStatement, type SqlRunner } from './sql-runner.js';

export interface CounterPolicy {
  limit: number;
  windowMs: number;
}

export interface CounterState {
  /** Attempts in this window, the caller's own included. */
  count: number;
  windowEndsAt: Date;
  /** When the count first went over the limit in this window. */
  exceededAt: Date | null;
  /** This very attempt took the count over the limit first (the start of a lock, for the audit log). */
  justExceeded: boolean;
}

interface CounterRow {
  key: string;
  count: number;
  window_ends_at: Date;
  exceeded_at: Date | null;
  just_exceeded: boolean;
}

const RESERVE = sqlStatement<CounterRow, { keys: string[]; limits: number[]; windowSeconds: number[] }>(
  'attempt-counters.reserve',
  (param) => `INSERT INTO attempt_counters AS c (key, count, limit_count, window_ends_at, exceeded_at)
     SELECT k.key, 1, k.lim, now() + make_interval(secs => k.secs), CASE WHEN k.lim < 1 THEN now() END
     FROM unnest(${param('keys')}::text[], ${param('limits')}::int[], ${param('windowSeconds')}::float8[])
       AS k(key, lim, secs)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN c.window_ends_at <= now() THEN 1 ELSE c.count + 1 END,
       limit_count = EXCLUDED.limit_count,
       window_ends_at = CASE WHEN c.window_ends_at <= now() THEN EXCLUDED.window_ends_at ELSE c.window_ends_at END,
       exceeded_at = CASE
         WHEN c.window_ends_at <= now() THEN EXCLUDED.exceeded_at
         WHEN c.exceeded_at IS NULL AND c.count + 1 > EXCLUDED.limit_count THEN now()
         ELSE c.exceeded_at END
     RETURNING key, count, window_ends_at, exceeded_at, coalesce(exceeded_at = now(), false) AS just_exceeded`,
);
const RELEASE = sqlStatement<never, { keys: readonly string[] }>(
  'attempt-counters.release',
  (param) => `UPDATE attempt_counters SET count = greatest(count - 1, 0) WHERE key = ANY(${param('keys')}::text[])`,
);
const CLEAR = sqlStatement<never, { keys: readonly string[] }>(
  'attempt-counters.clear',
  (param) => `DELETE FROM attempt_counters WHERE key = ANY(${param('keys')}::text[])`,
);
const SWEEP = sqlStatement<never>(
  'attempt-counters.sweep',
  () => 'DELETE FROM attempt_counters WHERE window_ends_at < now()',
);

/** Counts one attempt for each key; a key whose window has passed starts a new one. */
export async function reserveAttempts(
  db: SqlRunner,
  entries: readonly { key: string; policy: CounterPolicy }[],
): Promise<Map<string, CounterState>> {
  maybeSweep(db);
  const result = await runStatement(db, RESERVE, {
    keys: entries.map((entry) => entry.key),
    limits: entries.map((entry) => entry.policy.limit),
    windowSeconds: entries.map((entry) => entry.policy.windowMs / 1000),
  });
  return new Map(
    result.rows.map((row) => [
      row.key,
      {
        count: row.count,
        windowEndsAt: row.window_ends_at,
        exceededAt: row.exceeded_at,
        justExceeded: row.just_exceeded,
      },
    ]),
  );
}

/** Gives back reservations that were refused without doing the work, so that only real attempts count. */
export async function releaseAttempts(db: SqlRunner, keys: readonly string[]): Promise<void> {
  await runStatement(db, RELEASE, { keys });
}

export async function clearAttempts(db: SqlRunner, keys: readonly string[]): Promise<void> {
  await runStatement(db, CLEAR, { keys });
}

// Counters whose window has passed are dead weight; they are swept at most this often, on the way
// through a reservation, by whichever instance comes by.
const SWEEP_EVERY_MS = 10 * 60_000;
let lastSweep = 0;

export async function sweepAttemptCounters(db: SqlRunner): Promise<number> {
  return (await runStatement(db, SWEEP)).rowCount;
}

function maybeSweep(db: SqlRunner) {
  if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = Date.now();
  void sweepAttemptCounters(db).catch(() => {});
}
