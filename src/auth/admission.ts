// Admission of a request: authentication → plan → rate limit, in the contract's order. v1
// admits API keys only; /graphql also admits a web-app session (cookie) when no Authorization
// header is sent. Scope and parameters are checked later, per operation.
import type { Plan } from '../db/generated/prisma/enums.js';
import type { Config } from '../config/index.js';
import { ApiError, unavailable } from '../errors/index.js';
import type { ApiKeyAuthenticator } from './api-keys.js';
import type { BucketRef, RateLimitStore } from './rate-limit-store.js';
import { rateLimitHeaders, retryAfterOf, type BucketPolicy, type TakeResult } from './token-bucket.js';
import type { Principal } from './principal.js';
import { SCOPES } from './scopes.js';
import type { WebSessions } from '../sessions/index.js';
import { CONCURRENCY_RETRY_AFTER_SECONDS, type Lane, type WorkspaceConcurrency } from './workspace-concurrency.js';

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

/** A bucket a request spends from, with the name its RateLimit fields carry. */
interface NamedBucket extends BucketRef {
  name: 'burst' | 'workspace';
}

const unlimited = (principal: Principal): Admitted => ({ principal, headers: {}, refund: noRefund, spend: noSpend });

export function createAdmission(deps: {
  authenticator: ApiKeyAuthenticator;
  store: RateLimitStore;
  config: Config;
  sessions?: WebSessions;
  concurrency: WorkspaceConcurrency;
  onStoreError?: (error: unknown) => void;
}) {
  const policies = bucketPolicies(deps.config);
  const factor = deps.config.RATE_LIMIT_WORKSPACE_FACTOR;

  /**
   * The credential's bucket and, for automation (API keys, MCP connections), the workspace's:
   * however many keys or tokens a tenant holds, together they spend at most the workspace's
   * share. A person's web-app session has its own bucket only, so a workspace's scripts never
   * lock its people out of the product. Both keys carry the workspace as a Redis Cluster hash
   * tag, so one script can take from both.
   */
  function bucketsOf(principal: Principal, policy: BucketPolicy): NamedBucket[] {
    const tag = `{${principal.workspaceId}}`;
    const credential: NamedBucket = { key: `${tag}:${principal.credentialId}`, policy, name: 'burst' };
    if (principal.kind === 'session') return [credential];
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

  /** The 429 of a request the cap on requests in flight refuses (`waited`: after its wait in line). */
  function busy(lane: Lane, waited: boolean) {
    const { perWorkspace: max, maxWaiting, maxWaitMs } = deps.concurrency.limits;
    const who = lane === 'people' ? "this workspace's web-app sessions" : 'this workspace';
    const inFlight = `${max} request${max === 1 ? '' : 's'} in flight`;
    const what = waited
      ? `This request waited ${maxWaitMs / 1000} s while ${who} had ${inFlight}`
      : `Too many requests at once for ${who}: ${inFlight} and ${maxWaiting} waiting`;
    const retry = CONCURRENCY_RETRY_AFTER_SECONDS;
    const message = `${what} (its limit of concurrent requests); retry in ${retry} s.`;
    return new ApiError('rate_limited', message, { headers: { 'Retry-After': String(retry) } });
  }

  /**
   * The request's place among its workspace's requests in flight, then its tokens. A request
   * refused because its lane's line is full spends no token; one that waits takes its token
   * while it waits, and gets it back if its wait runs out. A request with a free share awaits
   * nothing here: its tokens' promise is the answer, with no async step of its own around it.
   */
  function limit(principal: Principal, policy: BucketPolicy | undefined, now: Date): Promise<Admitted> {
    const lane: Lane = principal.kind === 'session' ? 'people' : 'automation';
    const place = deps.concurrency.enter(principal.workspaceId, lane);
    if (place === false) return Promise.reject(busy(lane, false));
    const admitted = spendTokens(principal, policy, now);
    return place === true ? admitted : afterWaiting(lane, place, admitted);
  }

  async function afterWaiting(lane: Lane, place: Promise<boolean>, tokens: Promise<Admitted>): Promise<Admitted> {
    const admitted = await tokens;
    if (await place) return admitted;
    await admitted.refund().catch((error: unknown) => deps.onStoreError?.(error));
    throw busy(lane, true);
  }

  async function spendTokens(principal: Principal, policy: BucketPolicy | undefined, now: Date): Promise<Admitted> {
    if (!policy) return unlimited(principal);
    const buckets = bucketsOf(principal, policy);
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
      const holder =
        binding.name === 'workspace'
          ? 'this workspace (shared by its API keys and MCP connections)'
          : principal.kind === 'api_key'
            ? 'this API key'
            : principal.kind === 'oauth'
              ? 'this MCP connection'
              : 'this session';
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
  }

  /**
   * A principal another door authenticated (an MCP connection's tool call): the same buckets as
   * v1. A plan without API access (`starter` has MCP) is metered at the smallest API plan's size,
   * never left unlimited.
   */
  function meter(principal: Principal): Promise<Admitted> {
    return limit(principal, policies[principal.plan] ?? deps.config.RATE_LIMIT_PRO, new Date());
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

  return { admit, admitGraphQL, meter };
}

export type Admission = ReturnType<typeof createAdmission>;
