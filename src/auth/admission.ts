// Admission of a request: authentication → plan → rate limit, in the contract's order. v1
// admits API keys only; /graphql also admits a web-app session (cookie) when no Authorization
// header is sent. Scope and parameters are checked later, per operation.
import type { Plan } from '../db/generated/prisma/enums.js';
import type { Config } from '../config/index.js';
import { ApiError, unavailable } from '../errors/index.js';
import type { ApiKeyAuthenticator } from './api-keys.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { rateLimitHeaders, type BucketPolicy } from './token-bucket.js';
import { SCOPES, type Principal } from './principal.js';
import type { WebSessions } from '../sessions/index.js';

export interface Admitted {
  principal: Principal;
  headers: Record<string, string>;
  /** Gives the request's token back (a 304 costs nothing); returns the updated headers. */
  refund(): Promise<Record<string, string>>;
  /** Takes one more token for work the request goes on doing (an export's rows), waiting while the bucket is empty. */
  spend(): Promise<void>;
}

const noRefund = async () => ({});
const noSpend = async () => {};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function bucketPolicies(config: Config): Partial<Record<Plan, BucketPolicy>> {
  return { pro: config.RATE_LIMIT_PRO, agency: config.RATE_LIMIT_AGENCY, scale: config.RATE_LIMIT_SCALE };
}

export function createAdmission(deps: { authenticator: ApiKeyAuthenticator; store: RateLimitStore; config: Config; sessions?: WebSessions; onStoreError?: (error: unknown) => void }) {
  const policies = bucketPolicies(deps.config);

  async function limit(principal: Principal, policy: BucketPolicy | undefined, now: Date): Promise<Admitted> {
    if (!policy) return { principal, headers: {}, refund: noRefund, spend: noSpend };
    let result;
    try {
      result = await deps.store.take(principal.credentialId, policy, now.getTime());
    } catch (error) {
      deps.onStoreError?.(error);
      // Fail open: serve without a limit; fail closed: refuse until the store is back.
      if (deps.config.RATE_LIMIT_FAIL_OPEN) return { principal, headers: {}, refund: noRefund, spend: noSpend };
      throw unavailable();
    }
    const headers = rateLimitHeaders(policy, result);
    if (!result.allowed) {
      const holder = principal.kind === 'api_key' ? 'this API key' : 'this session';
      throw new ApiError('rate_limited', `Rate limit of ${holder} exceeded; retry in ${result.retryAfterSeconds} s.`, { headers });
    }
    const refund = async () => rateLimitHeaders(policy, await deps.store.take(principal.credentialId, policy, Date.now(), -1));
    const spend = async () => {
      for (;;) {
        const taken = await deps.store.take(principal.credentialId, policy, Date.now());
        if (taken.allowed) return;
        await sleep(taken.retryAfterSeconds * 1000);
      }
    };
    return { principal, headers, refund, spend };
  }

  /** v1: an API key, always. */
  async function admit(request: Request): Promise<Admitted> {
    const now = new Date();
    const principal = await deps.authenticator.authenticate(request.headers.get('authorization'), now);
    return limit(principal, policies[principal.plan], now);
  }

  /**
   * /graphql: an API key when an Authorization header is sent, otherwise the web-app session. The
   * web app is the product on every plan, so sessions are not refused by plan; each session has
   * a bucket of the largest plan's size.
   */
  async function admitGraphQL(request: Request): Promise<Admitted> {
    if (request.headers.has('authorization') || !deps.sessions) return admit(request);
    const session = await deps.sessions.read(request);
    if (!session) return admit(request);
    deps.sessions.assertSameOrigin(request);
    const principal: Principal = {
      kind: 'session',
      credentialId: session.id,
      workspaceId: session.workspaceId,
      plan: session.plan,
      timezone: session.timezone,
      scopes: SCOPES,
      userId: session.userId,
      email: session.email,
      role: session.role,
    };
    return limit(principal, deps.config.RATE_LIMIT_SCALE, new Date());
  }

  return { admit, admitGraphQL };
}

export type Admission = ReturnType<typeof createAdmission>;
