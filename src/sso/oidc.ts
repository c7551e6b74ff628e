// Single sign-on with OpenID Connect (openid-client v6): authorization code flow with PKCE
// (S256), state and nonce, the flow's secrets in a sealed cookie (flow.ts). The library
// validates the ID token (signature against the provider's keys — switched on in discovery.ts —,
// issuer, audience, expiry, nonce; `alg: none` is refused). Who signs in is the provider's
// (issuer, subject) (identities.ts); a session made this way stays in the workspace whose
// provider made it.
import type * as Oidc from 'openid-client';
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import { runStatement, sqlStatement } from '../db/sql-runner.js';
import { recordPersonAudit } from '../audit/index.js';
import { startSession, type CookiePolicy } from '../sessions/index.js';
import { workspaceForEmail } from './domains.js';
import { canonicalEmail, emailDomain } from '../mail/addresses.js';
import { loadOpenidClient, providerConfigurations, type DiscoveryDeps } from './discovery.js';
import { clearedFlowCookie, flowCookie, newFlow, readFlow, type Flow, type FlowTarget } from './flow.js';
import { identify, link } from './identities.js';
import { refused } from './refused.js';

export { SSO_CALLBACK_PATH } from './flow.js';
export { approveLink } from './link-approvals.js';

export interface SsoDeps extends DiscoveryDeps {
  pool: pg.Pool;
  cookiePolicy: CookiePolicy;
}

/** The person the provider vouched for, once its answer validated and names a verified address. */
interface SignedIn {
  issuer: string;
  subject: string;
  email: string;
  name: string;
}

/** How far ahead of this clock an ID token may say it was issued: the clock skew providers are allowed. */
const ISSUED_AHEAD_MAX_SECONDS = 300;

/** The provider's validated claims for the flow's callback. */
async function claimsOf(config: Oidc.Configuration, flow: Flow, callbackUrl: URL): Promise<Oidc.IDToken> {
  const error = callbackUrl.searchParams.get('error');
  if (error) {
    const description = callbackUrl.searchParams.get('error_description');
    throw refused(`the identity provider answered ${error}${description ? `: ${description}` : ''}.`);
  }
  // The library reads the code and state from this URL; the redirect URI must be the one sent.
  const current = new URL(flow.redirectUri);
  current.search = callbackUrl.search;
  const oidc = await loadOpenidClient();
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    // The library checks the expiry and a token issued too long ago, not one dated ahead of the clock.
    if (claims.iat > Date.now() / 1000 + ISSUED_AHEAD_MAX_SECONDS)
      throw new Error(`the ID token was issued ${Math.round(claims.iat - Date.now() / 1000)} s in the future`);
    return claims;
  } catch (error) {
    throw refused(`the identity provider's answer did not validate (${(error as Error).message}).`);
  }
}

const VERIFIED_DOMAIN = sqlStatement<{ verified: number }, { workspaceId: string; domain: string }>(
  'sso.verified-domain',
  (param) => `SELECT 1 AS verified FROM sso_domains
    WHERE workspace_id = ${param('workspaceId')} AND domain = ${param('domain')} AND verified_at IS NOT NULL`,
);

/** Who signs in: a verified address of a domain the workspace verified, and the provider's subject. */
async function signedIn(pool: pg.Pool, workspaceId: string, claims: Oidc.IDToken): Promise<SignedIn> {
  const email = typeof claims.email === 'string' ? canonicalEmail(claims.email) : null;
  if (!email) throw refused('the identity provider did not share an email address.');
  if (claims.email_verified !== true) throw refused(`the identity provider has not verified ${email}.`);
  const domain = emailDomain(email);
  const verified = await runStatement(pool, VERIFIED_DOMAIN, { workspaceId, domain });
  if (!verified.rowCount) throw refused(`${domain} is not a verified domain of this workspace.`);
  const subject = typeof claims.sub === 'string' && claims.sub ? claims.sub : null;
  if (!subject) throw refused('the identity provider did not name the person (no sub).');
  const name = typeof claims.name === 'string' ? claims.name : email.split('@')[0]!;
  return { issuer: claims.iss, subject, email, name };
}

export function createSso(deps: SsoDeps) {
  const configurationFor = providerConfigurations(deps);

  /** The redirect to the identity provider of the workspace that verified the address's domain. */
  async function start(email: string, baseUrl: string, returnTo: string | null = null) {
    if (!emailDomain(email))
      throw new ApiError('invalid_parameter', 'Give your work email address.', { param: 'email' });
    const workspaceId = await workspaceForEmail(deps.pool, email);
    if (!workspaceId)
      throw refused(
        `no workspace has verified the domain of ${email}. ` +
          'Sign in with your password, or ask an admin to set up single sign-on.',
      );
    return redirectToProvider({ workspaceId, ...(returnTo ? { returnTo } : {}) }, baseUrl, email);
  }

  /** The same redirect for a signed-in person linking their company sign-in (their current workspace's provider). */
  async function startLink(session: { userId: string; workspaceId: string; email: string }, baseUrl: string) {
    return redirectToProvider({ workspaceId: session.workspaceId, linkUserId: session.userId }, baseUrl, session.email);
  }

  async function redirectToProvider(target: FlowTarget, baseUrl: string, email: string) {
    const [config, oidc] = await Promise.all([configurationFor(target.workspaceId), loadOpenidClient()]);
    const flow = newFlow(oidc, target, baseUrl);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: flow.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
      login_hint: email,
    });
    return { location: url.href, cookie: flowCookie(deps, flow) };
  }

  /**
   * Finishes the flow: a session for a verified address of a verified domain, joining as member the
   * first time; `returnTo` is the page the sign-in was started from, if any.
   */
  async function finish(request: Request, callbackUrl: URL) {
    const clearCookie = clearedFlowCookie(deps);
    const flow = readFlow(deps, request);
    const claims = await claimsOf(await configurationFor(flow.workspaceId), flow, callbackUrl);
    const person = await signedIn(deps.pool, flow.workspaceId, claims);
    const userId = flow.linkUserId
      ? await link(deps, flow.workspaceId, flow.linkUserId, person)
      : await identify(deps, flow.workspaceId, person);
    const session = await startSession(deps.pool, userId, null, { ssoWorkspaceId: flow.workspaceId });
    await recordPersonAudit(deps.pool, {
      userId,
      action: 'session.signed_in',
      details: { method: 'sso', issuer: person.issuer },
      onlyWorkspaceId: flow.workspaceId,
    });
    return { ...session, clearCookie, returnTo: flow.returnTo ?? null };
  }

  return { start, startLink, finish };
}
