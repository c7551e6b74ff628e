// The secrets of one sign-in (state, nonce, PKCE verifier) travel in a sealed, short-lived
// cookie between the redirect to the provider and its callback, so nothing is stored in between.
import type * as Oidc from 'openid-client';
import type { SecretBox } from '../secrets/secret-box.js';
import { cookie, cookieName, readCookie, type CookiePolicy } from '../sessions/index.js';
import { refused } from './refused.js';

export const SSO_CALLBACK_PATH = '/app/sso/callback';
const FLOW_COOKIE = 'sb_sso';
const FLOW_CONTEXT = 'sso_flow';
const FLOW_TTL_MS = 10 * 60_000;

export interface Flow {
  workspaceId: string;
  /** Set when a signed-in person links their company sign-in to their account. */
  linkUserId?: string;
  /** The page the sign-in returns to (sessions' returnPath, checked again at the end). */
  returnTo?: string;
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  expiresAt: number;
}

export type FlowTarget = Pick<Flow, 'workspaceId' | 'linkUserId' | 'returnTo'>;

export interface FlowDeps {
  box: SecretBox;
  cookiePolicy: CookiePolicy;
}

/** A new flow for `target`, with fresh secrets; its callback is under `baseUrl`. */
export function newFlow(oidc: typeof Oidc, target: FlowTarget, baseUrl: string): Flow {
  return {
    ...target,
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
    redirectUri: `${baseUrl}${SSO_CALLBACK_PATH}`,
    expiresAt: Date.now() + FLOW_TTL_MS,
  };
}

export const flowCookie = (deps: FlowDeps, flow: Flow) =>
  cookie(deps.cookiePolicy, FLOW_COOKIE, deps.box.seal(JSON.stringify(flow), FLOW_CONTEXT), FLOW_TTL_MS / 1000);

export const clearedFlowCookie = (deps: FlowDeps) => cookie(deps.cookiePolicy, FLOW_COOKIE, '', 0);

/** The flow the callback's request carries, unless it was not started here or took too long. */
export function readFlow(deps: FlowDeps, request: Request): Flow {
  const sealed = readCookie(request.headers.get('cookie'), cookieName(deps.cookiePolicy, FLOW_COOKIE));
  let flow: Flow;
  try {
    flow = JSON.parse(deps.box.open(sealed ?? '', FLOW_CONTEXT)) as Flow;
  } catch {
    throw refused('the sign-in was not started here or has expired; start again.');
  }
  if (flow.expiresAt < Date.now()) throw refused('the sign-in took longer than 10 minutes; start again.');
  return flow;
}
