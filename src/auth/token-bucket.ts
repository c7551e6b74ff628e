// Token bucket as pure functions: the state is (tokens, updatedAt); time is passed in.
// Stores (memory, Redis) only persist the state; all arithmetic lives here, and the
// Redis Lua script in rate-limit-store.ts mirrors take() line for line. A negative cost
// refunds: a 304 Not Modified gives its token back, as GitHub does.

export interface BucketPolicy {
  capacity: number;
  refillPerSecond: number;
}

export interface BucketState {
  tokens: number;
  updatedAtMs: number;
}

export interface TakeResult {
  allowed: boolean;
  state: BucketState;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until one token is available (0 when allowed). */
  retryAfterSeconds: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
}

export function fullBucket(policy: BucketPolicy, nowMs: number): BucketState {
  return { tokens: policy.capacity, updatedAtMs: nowMs };
}

export function refill(policy: BucketPolicy, state: BucketState, nowMs: number): BucketState {
  const elapsedSeconds = Math.max(0, nowMs - state.updatedAtMs) / 1000;
  const tokens = Math.min(policy.capacity, state.tokens + elapsedSeconds * policy.refillPerSecond);
  return { tokens, updatedAtMs: Math.max(nowMs, state.updatedAtMs) };
}

/** Takes `cost` tokens; a negative cost gives tokens back (never above capacity). */
export function take(policy: BucketPolicy, previous: BucketState | undefined, nowMs: number, cost = 1): TakeResult {
  const current = previous ? refill(policy, previous, nowMs) : fullBucket(policy, nowMs);
  const allowed = current.tokens >= cost;
  const state = allowed ? { ...current, tokens: Math.min(policy.capacity, current.tokens - cost) } : current;
  const missing = Math.max(0, cost - state.tokens);
  return {
    allowed,
    state,
    remaining: Math.floor(state.tokens),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(missing / policy.refillPerSecond)),
    resetSeconds: Math.ceil((policy.capacity - state.tokens) / policy.refillPerSecond),
  };
}

/** IETF draft-ietf-httpapi-ratelimit-headers fields. */
export function rateLimitHeaders(policy: BucketPolicy, result: TakeResult): Record<string, string> {
  const window = Math.ceil(policy.capacity / policy.refillPerSecond);
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"burst";q=${policy.capacity};w=${window}`,
    RateLimit: `"burst";r=${result.remaining};t=${result.resetSeconds}`,
  };
  if (!result.allowed) headers['Retry-After'] = String(result.retryAfterSeconds);
  return headers;
}
