// The tokens a request spends: from which buckets (the credential's, and the workspace's for
// automation), which bucket's RateLimit fields it answers with, and the 429 when one is empty.
import type { Config } from '../config/index.js';
import { ApiError, unavailable } from '../errors/index.js';
import type { Principal } from './principal.js';
import type { BucketRef, RateLimitStore } from './rate-limit-store.js';
import { rateLimitHeaders, retryAfterOf, type BucketPolicy, type TakeResult } from './token-bucket.js';

export interface Admitted {
  principal: Principal;
  headers: Record<string, string>;
  /** Gives the request's token back (a 304 costs nothing); returns the updated headers. */
  refund(): Promise<Record<string, string>>;
  /** Takes one more token for work the request goes on doing (an export's rows), waiting while the bucket is empty. */
  spend(): Promise<void>;
}

export interface TokenDeps {
  store: RateLimitStore;
  config: Config;
  onStoreError?: (error: unknown) => void;
}

const noRefund = async () => ({});
const noSpend = async () => {};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A bucket a request spends from, with the name its RateLimit fields carry. */
interface NamedBucket extends BucketRef {
  name: 'burst' | 'workspace';
}

const unlimited = (principal: Principal): Admitted => ({ principal, headers: {}, refund: noRefund, spend: noSpend });

/**
 * The credential's bucket and, for automation (API keys, MCP connections), the workspace's:
 * however many keys or tokens a tenant holds, together they spend at most the workspace's
 * share. A person's web-app sessions share one bucket of their own (per person and workspace:
 * signing in again gives no new tokens), so a workspace's scripts never lock its people out of
 * the product. Both keys carry the workspace as a Redis Cluster hash tag, so one script can take
 * from both.
 */
function bucketsOf(principal: Principal, policy: BucketPolicy, factor: number): NamedBucket[] {
  const tag = `{${principal.workspaceId}}`;
  if (principal.kind === 'session') return [{ key: `${tag}:person:${principal.userId}`, policy, name: 'burst' }];
  const credential: NamedBucket = { key: `${tag}:${principal.credentialId}`, policy, name: 'burst' };
  return [
    credential,
    {
      key: `${tag}:workspace`,
      policy: { capacity: policy.capacity * factor, refillPerSecond: policy.refillPerSecond * factor },
      name: 'workspace',
    },
  ];
}

/** The RateLimit fields of the bucket that binds: the one that refused, else the one with the fewest tokens left. */
function headersOf(buckets: readonly NamedBucket[], results: readonly TakeResult[]) {
  const binding = results.reduce(
    (best, result, index) =>
      (
        result.allowed
          ? result.remaining < results[best]!.remaining
          : result.retryAfterSeconds > results[best]!.retryAfterSeconds
      )
        ? index
        : best,
    0,
  );
  const headers = rateLimitHeaders(buckets[binding]!.policy, results[binding]!, buckets[binding]!.name);
  if (!results[0]!.allowed) headers['Retry-After'] = String(retryAfterOf(results));
  return { headers, binding: buckets[binding]! };
}

/** Whose tokens ran out, in the words of the 429. */
function holderOf(binding: NamedBucket, principal: Principal) {
  if (binding.name === 'workspace') return 'this workspace (shared by its API keys and MCP connections)';
  if (principal.kind === 'api_key') return 'this API key';
  return principal.kind === 'oauth' ? 'this MCP connection' : 'this session';
}

/** Takes the request's tokens (see bucketsOf): an Admitted that can give them back or spend more, or a 429. */
export function tokenSpender(deps: TokenDeps) {
  const factor = deps.config.RATE_LIMIT_WORKSPACE_FACTOR;
  return async function spendTokens(
    principal: Principal,
    policy: BucketPolicy | undefined,
    now: Date,
  ): Promise<Admitted> {
    if (!policy) return unlimited(principal);
    const buckets = bucketsOf(principal, policy, factor);
    let results;
    try {
      results = await deps.store.take(buckets, now.getTime());
    } catch (error) {
      deps.onStoreError?.(error);
      // Fail open: serve without a limit; fail closed: refuse until the store is back.
      if (deps.config.RATE_LIMIT_FAIL_OPEN) return unlimited(principal);
      throw unavailable();
    }
    const { headers, binding } = headersOf(buckets, results);
    if (!results[0]!.allowed) {
      const holder = holderOf(binding, principal);
      throw new ApiError('rate_limited', `Rate limit of ${holder} exceeded; retry in ${headers['Retry-After']} s.`, {
        headers,
      });
    }
    const refund = async () => headersOf(buckets, await deps.store.take(buckets, Date.now(), -1)).headers;
    const spend = async () => {
      for (;;) {
        const taken = await deps.store.take(buckets, Date.now());
        if (taken[0]!.allowed) return;
        await sleep(retryAfterOf(taken) * 1000);
      }
    };
    return { principal, headers, refund, spend };
  };
}
