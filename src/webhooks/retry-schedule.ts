// When the next attempt of a failed delivery happens. Pure: the worker passes the clock and
// the random source.

/** Seconds until the next attempt after `attempt` (1-based) failed, or null when retries are used up. */
export function retryDelaySeconds(
  attempt: number,
  schedule: readonly number[],
  random: () => number = Math.random,
): number | null {
  const delay = schedule[attempt - 1];
  if (delay === undefined) return null;
  // Up to +20 % so that many deliveries failing together (an outage) do not retry in lockstep;
  // never earlier than the schedule says.
  return delay * (1 + 0.2 * random());
}

const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/**
 * A Retry-After header (seconds or HTTP date) as seconds from now, bounded to a day; null when absent or unreadable.
 */
export function retryAfterSeconds(header: string | null | undefined, now: Date): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  let seconds: number;
  if (/^\d+$/.test(trimmed)) seconds = Number(trimmed);
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    seconds = (at - now.getTime()) / 1000;
  }
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS);
}

/**
 * The delay before the next attempt: the schedule's, or longer when the receiver asked for it with Retry-After
 * (429/503).
 */
export function nextAttemptDelay(
  attempt: number,
  schedule: readonly number[],
  status: number | null,
  retryAfter: number | null,
  random: () => number = Math.random,
): number | null {
  const scheduled = retryDelaySeconds(attempt, schedule, random);
  if (scheduled === null) return null;
  if ((status === 429 || status === 503) && retryAfter !== null) return Math.max(scheduled, retryAfter);
  return scheduled;
}

export type AttemptOutcome =
  | { kind: 'succeeded' }
  | { kind: 'retry'; delaySeconds: number }
  | { kind: 'failed' }
  /** 410 Gone: the receiver says the endpoint no longer exists. */
  | { kind: 'gone' };

/** What follows an attempt: only 2xx succeeds; 3xx is a failure (redirects are not followed). */
export function attemptOutcome(
  result: { status: number | null; retryAfter: string | null },
  attempt: number,
  schedule: readonly number[],
  now: Date,
  random: () => number = Math.random,
): AttemptOutcome {
  if (result.status !== null && result.status >= 200 && result.status < 300) return { kind: 'succeeded' };
  if (result.status === 410) return { kind: 'gone' };
  const delay = nextAttemptDelay(attempt, schedule, result.status, retryAfterSeconds(result.retryAfter, now), random);
  return delay === null ? { kind: 'failed' } : { kind: 'retry', delaySeconds: delay };
}
