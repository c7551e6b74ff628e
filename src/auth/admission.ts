// Admission of an API-key request: authentication → plan → rate limit, in the contract's
// order. Scope and parameters are checked later, per operation.
import type { Plan } from '../db/generated/prisma/enums.js';
import type { Config } from '../config/index.js';
import { ApiError, unavailable } from '../errors/index.js';
import type { ApiKeyAuthenticator } from './api-keys.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { rateLimitHeaders, type BucketPolicy } from './token-bucket.js';
import type { Principal } from './principal.js';

export interface Admitted {
  principal: Principal;
  headers: Record<string, string>;
  /** Gives the request's token back (a 304 costs nothing); returns the updated headers. */
  refund(): Promise<Record<string, string>>;
}

const noRefund = async () => ({});

export function bucketPolicies(config: Config): Partial<Record<Plan, BucketPolicy>> {
  return { pro: config.RATE_LIMIT_PRO, agency: config.RATE_LIMIT_AGENCY, scale: config.RATE_LIMIT_SCALE };
}

export function createAdmission(deps: { authenticator: ApiKeyAuthenticator; store: RateLimitStore; config: Config; onStoreError?: (error: unknown) => void }) {
  const policies = bucketPolicies(deps.config);
  return async function admit(request: Request): Promise<Admitted> {
    const now = new Date();
    const principal = await deps.authenticator.authenticate(request.headers.get('authorization'), now);
    const policy = policies[principal.plan];
    if (!policy) return { principal, headers: {}, refund: noRefund };
    let result;
    try {
      result = await deps.store.take(principal.credentialId, policy, now.getTime());
    } catch (error) {
      deps.onStoreError?.(error);
      // Fail open: serve without a limit; fail closed: refuse until the store is back.
      if (deps.config.RATE_LIMIT_FAIL_OPEN) return { principal, headers: {}, refund: noRefund };
      throw unavailable();
    }
    const headers = rateLimitHeaders(policy, result);
    if (!result.allowed) {
      throw new ApiError('rate_limited', `Rate limit of this API key exceeded; retry in ${result.retryAfterSeconds} s.`, { headers });
    }
    const refund = async () => rateLimitHeaders(policy, await deps.store.take(principal.credentialId, policy, Date.now(), -1));
    return { principal, headers, refund };
  };
}

export type Admit = ReturnType<typeof createAdmission>;
