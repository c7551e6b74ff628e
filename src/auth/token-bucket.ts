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
  /** Seconds until one token is available (0 when allowed, or when this bucket has it). */
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
  return resultOf(
    policy,
    allowed ? { ...current, tokens: Math.min(policy.capacity, current.tokens - cost) } : current,
    allowed,
    cost,
  );
}

/** What a caller is told about a bucket in `state` (after the take, or untouched when refused). */
export function resultOf(policy: BucketPolicy, state: BucketState, allowed: boolean, cost: number): TakeResult {
  const missing = Math.max(0, cost - state.tokens);
  return {
    allowed,
    state,
    remaining: Math.floor(state.tokens),
    // 0 for a bucket that had the tokens even when another bucket refused the request.
    retryAfterSeconds: allowed || missing === 0 ? 0 : Math.max(1, Math.ceil(missing / policy.refillPerSecond)),
    resetSeconds: Math.ceil((policy.capacity - state.tokens) / policy.refillPerSecond),
  };
}

/**
 * Takes `cost` from every bucket or from none: a request passes only when each of its buckets
 * (its credential's, its workspace's) has the tokens, and a refused request spends nothing.
 */
export function takeAll(
  buckets: readonly { policy: BucketPolicy; state: BucketState | undefined }[],
  nowMs: number,
  cost = 1,
): TakeResult[] {
  const each = buckets.map(({ policy, state }) => take(policy, state, nowMs, cost));
  if (each.every((result) => result.allowed)) return each;
  return buckets.map(({ policy, state }) =>
    resultOf(policy, state ? refill(policy, state, nowMs) : fullBucket(policy, nowMs), false, cost),
  );
}

/** The refusal's wait: until every bucket has the tokens again. */
export const retryAfterOf = (results: readonly TakeResult[]) =>
  Math.max(0, ...results.map((result) => result.retryAfterSeconds));

/** IETF draft-ietf-httpapi-ratelimit-headers fields. */
export function rateLimitHeaders(policy: BucketPolicy, result: TakeResult, name = 'burst'): Record<string, string> {
  const window = Math.ceil(policy.capacity / policy.refillPerSecond);
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${name}";q=${policy.capacity};w=${window}`,
    RateLimit: `"${name}";r=${result.remaining};t=${result.resetSeconds}`,
  };
  if (!result.allowed) headers['Retry-After'] = String(result.retryAfterSeconds);
  return headers;
}
