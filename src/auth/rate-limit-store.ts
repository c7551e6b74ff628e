// Where bucket state lives: in process (one instance) or in Redis (shared by instances).
import { inRecordedTrace, inSpan, SpanKind } from '../observability/tracing.js';
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import { take, type BucketPolicy, type BucketState, type TakeResult } from './token-bucket.js';

export interface RateLimitStore {
  /** Takes `cost` tokens (default 1); a cost of -1 gives one back. */
  take(key: string, policy: BucketPolicy, nowMs: number, cost?: number): Promise<TakeResult>;
}

export function memoryRateLimitStore(max = 100_000): RateLimitStore {
  const buckets = new LRUCache<string, BucketState>({ max });
  return {
    async take(key, policy, nowMs, cost = 1) {
      const result = take(policy, buckets.get(key), nowMs, cost);
      buckets.set(key, result.state);
      return result;
    },
  };
}

// The same arithmetic as token-bucket.ts take(), run atomically inside Redis.
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = tonumber(state[1])
local updated = tonumber(state[2])
if tokens == nil then
  tokens = capacity
  updated = now
end
local elapsed = math.max(0, now - updated) / 1000
tokens = math.min(capacity, tokens + elapsed * rate)
updated = math.max(now, updated)
local allowed = 0
if tokens >= cost then
  tokens = math.min(capacity, tokens - cost)
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(updated))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return { allowed, tostring(tokens), tostring(updated) }
`;

export function redisRateLimitStore(redis: Redis): RateLimitStore {
  return {
    async take(key, policy, nowMs, cost = 1) {
      const evaluate = () => redis.eval(TAKE_SCRIPT, 1, `ratelimit:${key}`, policy.capacity, policy.refillPerSecond, nowMs, cost);
      const reply = inRecordedTrace() ? await inSpan('EVAL ratelimit.take', { 'db.system.name': 'redis' }, evaluate, { kind: SpanKind.CLIENT }) : await evaluate();
      const [allowed, tokens, updated] = reply as [number, string, string];
      // Recompute the derived fields (remaining, retry, reset) with the pure function, from the stored result.
      const state = { tokens: Number(tokens), updatedAtMs: Number(updated) };
      const derived = take(policy, allowed === 1 ? { ...state, tokens: state.tokens + cost } : state, state.updatedAtMs, cost);
      return { ...derived, allowed: allowed === 1, state };
    },
  };
}
