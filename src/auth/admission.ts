// Admission of a request: authentication → plan → rate limit, in the contract's order. v1
// admits API keys only; /graphql also admits a web-app session (cookie) when no Authorization
// header is sent. Scope and parameters are checked later, per operation.
import type { Plan } from '../db/generated/prisma/enums.js';
import type { Config } from '../config/index.js';
import { ApiError } from '../errors/index.js';
import type { ApiKeyAuthenticator } from './api-keys.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { BucketPolicy } from './token-bucket.js';
import type { Principal } from './principal.js';
import { SCOPES } from './scopes.js';
import type { WebSessions } from '../sessions/index.js';
import { tokenSpender, type Admitted } from './token-spending.js';
import { CONCURRENCY_RETRY_AFTER_SECONDS, type Lane, type WorkspaceConcurrency } from './workspace-concurrency.js';

export type { Admitted } from './token-spending.js';

export function bucketPolicies(config: Config): Partial<Record<Plan, BucketPolicy>> {
  return { pro: config.RATE_LIMIT_PRO, agency: config.RATE_LIMIT_AGENCY, scale: config.RATE_LIMIT_SCALE };
}

/** The 429 of a request the cap on requests in flight refuses (`waited`: after its wait in line). */
function busy(limits: WorkspaceConcurrency['limits'], lane: Lane, waited: boolean) {
  const { perWorkspace: max, maxWaiting, maxWaitMs } = limits;
  const who = lane === 'people' ? "this workspace's web-app sessions" : 'this workspace';
  const inFlight = `${max} request${max === 1 ? '' : 's'} in flight`;
  const what = waited
    ? `This request waited ${maxWaitMs / 1000} s while ${who} had ${inFlight}`
    : `Too many requests at once for ${who}: ${inFlight} and ${maxWaiting} waiting`;
  const retry = CONCURRENCY_RETRY_AFTER_SECONDS;
  const message = `${what} (its limit of concurrent requests); retry in ${retry} s.`;
  return new ApiError('rate_limited', message, { headers: { 'Retry-After': String(retry) } });
}

export function createAdmission(deps: {
  authenticator: ApiKeyAuthenticator;
  store: RateLimitStore;
  config: Config;
  sessions?: WebSessions;
  concurrency: WorkspaceConcurrency;
  onStoreError?: (error: unknown) => void;
}) {
  const policies = bucketPolicies(deps.config);
  const spendTokens = tokenSpender(deps);

  /**
   * The request's place among its workspace's requests in flight, then its tokens. A request
   * refused because its lane's line is full spends no token; one that waits takes its token
   * while it waits, and gets it back if its wait runs out. A request with a free share awaits
   * nothing here: its tokens' promise is the answer, with no async step of its own around it.
   */
  function limit(principal: Principal, policy: BucketPolicy | undefined, now: Date): Promise<Admitted> {
    const lane: Lane = principal.kind === 'session' ? 'people' : 'automation';
    const place = deps.concurrency.enter(principal.workspaceId, lane);
    if (place === false) return Promise.reject(busy(deps.concurrency.limits, lane, false));
    const admitted = spendTokens(principal, policy, now);
    return place === true ? admitted : afterWaiting(lane, place, admitted);
  }

  async function afterWaiting(lane: Lane, place: Promise<boolean>, tokens: Promise<Admitted>): Promise<Admitted> {
    const admitted = await tokens;
    if (await place) return admitted;
    await admitted.refund().catch((error: unknown) => deps.onStoreError?.(error));
    throw busy(deps.concurrency.limits, lane, true);
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
