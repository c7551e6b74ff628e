// Single sign-on with OpenID Connect (openid-client v6): authorization code flow with PKCE
// (S256), state and nonce. The flow's secrets travel in a sealed, short-lived cookie, so
// nothing is stored between the two legs. The library validates the ID token (signature
// against the provider's keys — switched on below —, issuer, audience, expiry, nonce; `alg:
// none` is refused).
import * as oidc from 'openid-client';
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { ApiError } from '../errors/index.js';
import { recordAudit } from '../audit/audit-log.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { cookie, cookieName, readCookie, type CookiePolicy } from '../sessions/cookies.js';
import { startSession } from '../sessions/login.js';
import { clientSecretContext } from './connections.js';
import { workspaceForEmail } from './domains.js';
import { emailDomain } from './public-mail-domains.js';

export const SSO_CALLBACK_PATH = '/app/sso/callback';
const FLOW_CONTEXT = 'sso_flow';
const FLOW_TTL_MS = 10 * 60_000;
const DISCOVERY_TTL_MS = 10 * 60_000;

interface Flow {
  workspaceId: string;
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  expiresAt: number;
}

export interface SsoDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  box: SecretBox;
  cookiePolicy: CookiePolicy;
  allowHttpIssuers: boolean;
}

const FLOW_COOKIE = 'sb_sso';

const refused = (message: string) => new ApiError('forbidden', `Single sign-on refused: ${message}`);

export function createSso(deps: SsoDeps) {
  const discovered = new Map<string, { config: oidc.Configuration; at: number; fingerprint: string }>();

  async function configurationFor(workspaceId: string): Promise<oidc.Configuration> {
    const connection = await deps.prisma.ssoConnection.findUnique({ where: { workspaceId } });
    if (!connection) throw refused('this workspace has no identity provider configured.');
    const fingerprint = `${connection.issuer}|${connection.clientId}|${connection.updatedAt.getTime()}`;
    const cached = discovered.get(workspaceId);
    if (cached && cached.fingerprint === fingerprint && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const secret = deps.box.open(connection.clientSecret, clientSecretContext(workspaceId));
    let config: oidc.Configuration;
    try {
      // enableNonRepudiationChecks: without it the library trusts the TLS channel of the token
      // endpoint and does not verify the ID token's signature (OIDC Core 3.1.3.7 allows that);
      // we verify it against the provider's published keys anyway.
      const execute = [oidc.enableNonRepudiationChecks, ...(deps.allowHttpIssuers ? [oidc.allowInsecureRequests] : [])];
      config = await oidc.discovery(new URL(connection.issuer), connection.clientId, undefined, oidc.ClientSecretBasic(secret), { execute });
    } catch (error) {
      throw new ApiError('unavailable', `The identity provider ${connection.issuer} could not be reached or described itself wrongly (${(error as Error).message}).`);
    }
    discovered.set(workspaceId, { config, at: Date.now(), fingerprint });
    return config;
  }

  /** The redirect to the identity provider of the workspace that verified the address's domain. */
  async function start(email: string, baseUrl: string): Promise<{ location: string; cookie: string }> {
    if (!emailDomain(email)) throw new ApiError('invalid_parameter', 'Give your work email address.', { param: 'email' });
    const workspaceId = await workspaceForEmail(deps.pool, email);
    if (!workspaceId) throw refused(`no workspace has verified the domain of ${email}. Sign in with your password, or ask an admin to set up single sign-on.`);
    const config = await configurationFor(workspaceId);
    const verifier = oidc.randomPKCECodeVerifier();
    const flow: Flow = { workspaceId, state: oidc.randomState(), nonce: oidc.randomNonce(), verifier, redirectUri: `${baseUrl}${SSO_CALLBACK_PATH}`, expiresAt: Date.now() + FLOW_TTL_MS };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: flow.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
      login_hint: email,
    });
    return { location: url.href, cookie: cookie(deps.cookiePolicy, FLOW_COOKIE, deps.box.seal(JSON.stringify(flow), FLOW_CONTEXT), FLOW_TTL_MS / 1000) };
  }

  /** Finishes the flow: a session for a verified address of a verified domain, joining as member the first time. */
  async function finish(request: Request, callbackUrl: URL): Promise<{ token: string; expiresAt: Date; clearCookie: string }> {
    const clearCookie = cookie(deps.cookiePolicy, FLOW_COOKIE, '', 0);
    const sealed = readCookie(request.headers.get('cookie'), cookieName(deps.cookiePolicy, FLOW_COOKIE));
    let flow: Flow;
    try {
      flow = JSON.parse(deps.box.open(sealed ?? '', FLOW_CONTEXT)) as Flow;
    } catch {
      throw refused('the sign-in was not started here or has expired; start again.');
    }
    if (flow.expiresAt < Date.now()) throw refused('the sign-in took longer than 10 minutes; start again.');
    const error = callbackUrl.searchParams.get('error');
    if (error) throw refused(`the identity provider answered ${error}${callbackUrl.searchParams.get('error_description') ? `: ${callbackUrl.searchParams.get('error_description')}` : ''}.`);
    const config = await configurationFor(flow.workspaceId);
    // The library reads the code and state from this URL; the redirect URI must be the one sent.
    const current = new URL(flow.redirectUri);
    current.search = callbackUrl.search;
    let claims: oidc.IDToken;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
      claims = tokens.claims()!;
    } catch (error) {
      throw refused(`the identity provider's answer did not validate (${(error as Error).message}).`);
    }
    const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
    if (!email) throw refused('the identity provider did not share an email address.');
    if (claims.email_verified !== true) throw refused(`the identity provider has not verified ${email}.`);
    const domain = emailDomain(email);
    const verified = await deps.pool.query('SELECT 1 FROM sso_domains WHERE workspace_id = $1 AND domain = $2 AND verified_at IS NOT NULL', [flow.workspaceId, domain]);
    if (!verified.rowCount) throw refused(`${domain} is not a verified domain of this workspace.`);

    const userId = await joinIfNew(flow.workspaceId, email, typeof claims.name === 'string' ? claims.name : email.split('@')[0]!);
    const workspace = await deps.prisma.workspace.findUniqueOrThrow({ where: { id: flow.workspaceId }, select: { slug: true } });
    const session = await startSession(deps.pool, userId, workspace.slug);
    return { ...session, clearCookie };
  }

  async function joinIfNew(workspaceId: string, email: string, name: string): Promise<string> {
    const user =
      (await deps.prisma.user.findFirst({ where: { email: { equals: email, mode: 'insensitive' } } })) ??
      (await deps.prisma.user.create({ data: { id: newId('user'), email, name: name.slice(0, 200) } }));
    const membership = await deps.prisma.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId: user.id } } });
    if (!membership) {
      await deps.prisma.membership.create({ data: { id: newId('membership'), workspaceId, userId: user.id, role: 'member' } });
      await recordAudit(deps.prisma, { workspaceId, actor: user.id, action: 'member.joined_via_sso', target: user.id, details: { email } });
    }
    return user.id;
  }

  return { start, finish };
}
