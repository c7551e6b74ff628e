// Where bucket state lives: in process (one instance) or in Redis (shared by instances).
import { inRecordedTrace, inSpan, SpanKind } from '../observability/tracing.js';
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import { refill, resultOf, takeAll, type BucketPolicy, type BucketState, type TakeResult } from './token-bucket.js';

export interface BucketRef {
  key: string;
  policy: BucketPolicy;
}

export interface RateLimitStore {
  /**
   * Takes `cost` tokens (default 1) from every bucket or from none (token-bucket.ts takeAll); a cost of -1 gives one
   * back to each.
   */
  take(buckets: readonly BucketRef[], nowMs: number, cost?: number): Promise<TakeResult[]>;
}

export function memoryRateLimitStore(max = 100_000): RateLimitStore {
  const buckets = new LRUCache<string, BucketState>({ max });
  return {
    async take(refs, nowMs, cost = 1) {
      const results = takeAll(
        refs.map(({ key, policy }) => ({ policy, state: buckets.get(key) })),
        nowMs,
        cost,
      );
      refs.forEach(({ key }, index) => buckets.set(key, results[index]!.state));
      return results;
    },
  };
}

// The same arithmetic as token-bucket.ts takeAll(), run atomically inside Redis over KEYS, with
// ARGV = now, cost, then capacity and rate per key.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local allowed = 1
local tokens, updated, capacity, rate = {}, {}, {}, {}
for i, key in ipairs(KEYS) do
  capacity[i] = tonumber(ARGV[1 + 2 * i])
  rate[i] = tonumber(ARGV[2 + 2 * i])
  local state = redis.call('HMGET', key, 'tokens', 'updated')
  local t = tonumber(state[1])
  local u = tonumber(state[2])
  if t == nil then
    t = capacity[i]
    u = now
  end
  local elapsed = math.max(0, now - u) / 1000
  tokens[i] = math.min(capacity[i], t + elapsed * rate[i])
  updated[i] = math.max(now, u)
  if tokens[i] < cost then allowed = 0 end
end
local reply = { allowed }
for i, key in ipairs(KEYS) do
  if allowed == 1 then tokens[i] = math.min(capacity[i], tokens[i] - cost) end
  redis.call('HSET', key, 'tokens', tostring(tokens[i]), 'updated', tostring(updated[i]))
  redis.call('PEXPIRE', key, math.ceil(capacity[i] / rate[i] * 1000) + 1000)
  reply[#reply + 1] = tostring(tokens[i])
  reply[#reply + 1] = tostring(updated[i])
end
return reply
`;

export function redisRateLimitStore(redis: Redis): RateLimitStore {
  return {
    async take(refs, nowMs, cost = 1) {
      const args = refs.flatMap(({ policy }) => [policy.capacity, policy.refillPerSecond]);
      const evaluate = () =>
        redis.eval(TAKE_SCRIPT, refs.length, ...refs.map(({ key }) => `ratelimit:${key}`), nowMs, cost, ...args);
      const reply = inRecordedTrace()
        ? await inSpan('EVAL ratelimit.take', { 'db.system.name': 'redis' }, evaluate, { kind: SpanKind.CLIENT })
        : await evaluate();
      const [allowed, ...states] = reply as [number, ...string[]];
      // The derived fields (remaining, retry, reset) come from the pure function, from the stored states.
      return refs.map(({ policy }, index) =>
        resultOf(
          policy,
          { tokens: Number(states[2 * index]), updatedAtMs: Number(states[2 * index + 1]) },
          allowed === 1,
          cost,
        ),
      );
    },
  };
}

/**
 * In front of a shared store (Redis): remembers a refusal, and refuses the same buckets here until
 * the one that refused could hold the tokens again. No other instance can add tokens before then
 * (they only take; a refund gives one back, and clears the memory here), so the answer is the one
 * the store would give, and a workspace flooding while refused costs the shared store one command
 * per wait, not one per request: Redis stays free for the tenants that are not flooding.
 */
export function rememberingRefusals(store: RateLimitStore, max = 10_000): RateLimitStore {
  const refused = new LRUCache<string, { states: BucketState[]; untilMs: number }>({ max });
  return {
    async take(refs, nowMs, cost = 1) {
      const key = refs.map((ref) => ref.key).join('\n');
      const remembered = cost > 0 ? refused.get(key) : undefined;
      if (remembered && nowMs < remembered.untilMs)
        return refs.map(({ policy }, index) =>
          resultOf(policy, refill(policy, remembered.states[index]!, nowMs), false, cost),
        );
      const results = await store.take(refs, nowMs, cost);
      if (results.every((result) => result.allowed)) refused.delete(key);
      else {
        const waitMs = Math.max(
          ...refs.map(
            ({ policy }, index) => (Math.max(0, cost - results[index]!.state.tokens) / policy.refillPerSecond) * 1000,
          ),
        );
        refused.set(key, { states: results.map((result) => result.state), untilMs: nowMs + waitMs });
      }
      return results;
    },
  };
}
