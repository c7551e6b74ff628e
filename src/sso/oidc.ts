// Single sign-on with OpenID Connect (openid-client v6): authorization code flow with PKCE
// (S256), state and nonce. The flow's secrets travel in a sealed, short-lived cookie, so
// nothing is stored between the two legs. The library validates the ID token (signature
// against the provider's keys — switched on below —, issuer, audience, expiry, nonce; `alg:
// none` is refused). Every call to the provider goes through the outbound guard.
//
// Who signs in is the provider's (issuer, subject), bound to one account in user_identities —
// never an email match on an existing account: a workspace's admin controls their provider and
// could make it assert anyone's address. An unknown identity creates a new person only when no
// account holds the address; otherwise the person links it once from a signed-in session, or an
// owner of the workspace approves the link for a member. A session made this way stays in the
// workspace whose provider made it.
import type * as Oidc from 'openid-client';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { ApiError } from '../errors/index.js';
import { recordAudit, recordPersonAudit } from '../audit/index.js';
import type { OutboundFetch } from '../http/outbound-fetch.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { cookie, cookieName, readCookie, type CookiePolicy } from '../sessions/index.js';
import { startSession } from '../sessions/index.js';
import { clientSecretContext } from './connections.js';
import { workspaceForEmail } from './domains.js';
import { emailDomain } from '../mail/addresses.js';
import { UsageError } from '../errors/index.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand } from '../workspaces/index.js';

export const SSO_CALLBACK_PATH = '/app/sso/callback';
const FLOW_CONTEXT = 'sso_flow';
const FLOW_TTL_MS = 10 * 60_000;
const DISCOVERY_TTL_MS = 10 * 60_000;

interface Flow {
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

export interface SsoDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  box: SecretBox;
  cookiePolicy: CookiePolicy;
  allowHttpIssuers: boolean;
  /** The outbound guard's fetch (no private targets, timeout, size cap). */
  fetch: OutboundFetch;
  logger: Logger;
}

const FLOW_COOKIE = 'sb_sso';

const refused = (message: string) => new ApiError('forbidden', `Single sign-on refused: ${message}`);
const LINK_APPROVAL_TTL_MS = 7 * 86_400_000;

/** openid-client (with jose) is loaded by the first sign-in that needs it: most instances never hold it. */
let openidClient: Promise<typeof Oidc> | null = null;
const loadOpenidClient = () => (openidClient ??= import('openid-client'));

export function createSso(deps: SsoDeps) {
  const discovered = new Map<string, { config: Oidc.Configuration; at: number; fingerprint: string }>();

  async function configurationFor(workspaceId: string): Promise<Oidc.Configuration> {
    const connection = await deps.prisma.ssoConnection.findUnique({ where: { workspaceId } });
    if (!connection) throw refused('this workspace has no identity provider configured.');
    const fingerprint = `${connection.issuer}|${connection.clientId}|${connection.updatedAt.getTime()}`;
    const cached = discovered.get(workspaceId);
    if (cached && cached.fingerprint === fingerprint && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const secret = deps.box.open(connection.clientSecret, clientSecretContext(workspaceId));
    const oidc = await loadOpenidClient();
    let config: Oidc.Configuration;
    try {
      // enableNonRepudiationChecks: without it the library trusts the TLS channel of the token
      // endpoint and does not verify the ID token's signature (OIDC Core 3.1.3.7 allows that);
      // we verify it against the provider's published keys anyway.
      const execute = [oidc.enableNonRepudiationChecks, ...(deps.allowHttpIssuers ? [oidc.allowInsecureRequests] : [])];
      config = await oidc.discovery(
        new URL(connection.issuer),
        connection.clientId,
        undefined,
        oidc.ClientSecretBasic(secret),
        { execute, [oidc.customFetch]: deps.fetch as never },
      );
      // Keys and tokens are fetched through the same guard.
      config[oidc.customFetch] = deps.fetch as never;
    } catch (error) {
      // The person sees a generic line (no oracle for what lives at that address); the log has the detail.
      deps.logger.warn({ err: error, workspaceId, issuer: connection.issuer }, 'identity provider discovery failed');
      throw new ApiError(
        'unavailable',
        'The identity provider could not be reached. Try again later, or sign in with your password.',
      );
    }
    discovered.set(workspaceId, { config, at: Date.now(), fingerprint });
    return config;
  }

  /** The redirect to the identity provider of the workspace that verified the address's domain. */
  async function start(email: string, baseUrl: string, returnTo: string | null = null) {
    if (!emailDomain(email))
      throw new ApiError('invalid_parameter', 'Give your work email address.', { param: 'email' });
    const workspaceId = await workspaceForEmail(deps.pool, email);
    if (!workspaceId)
      throw refused(
        `no workspace has verified the domain of ${email}. Sign in with your password, or ask an admin to set up single sign-on.`,
      );
    return redirectToProvider({ workspaceId, ...(returnTo ? { returnTo } : {}) }, baseUrl, email);
  }

  /** The same redirect for a signed-in person linking their company sign-in (their current workspace's provider). */
  async function startLink(session: { userId: string; workspaceId: string; email: string }, baseUrl: string) {
    return redirectToProvider({ workspaceId: session.workspaceId, linkUserId: session.userId }, baseUrl, session.email);
  }

  type Target = Pick<Flow, 'workspaceId' | 'linkUserId' | 'returnTo'>;
  async function redirectToProvider(target: Target, baseUrl: string, email: string) {
    const workspaceId = target.workspaceId;
    const [config, oidc] = await Promise.all([configurationFor(workspaceId), loadOpenidClient()]);
    const verifier = oidc.randomPKCECodeVerifier();
    const flow: Flow = {
      ...target,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier,
      redirectUri: `${baseUrl}${SSO_CALLBACK_PATH}`,
      expiresAt: Date.now() + FLOW_TTL_MS,
    };
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
    return {
      location: url.href,
      cookie: cookie(
        deps.cookiePolicy,
        FLOW_COOKIE,
        deps.box.seal(JSON.stringify(flow), FLOW_CONTEXT),
        FLOW_TTL_MS / 1000,
      ),
    };
  }

  /**
   * Finishes the flow: a session for a verified address of a verified domain, joining as member the
   * first time; `returnTo` is the page the sign-in was started from, if any.
   */
  async function finish(request: Request, callbackUrl: URL) {
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
    if (error)
      throw refused(
        `the identity provider answered ${error}${callbackUrl.searchParams.get('error_description') ? `: ${callbackUrl.searchParams.get('error_description')}` : ''}.`,
      );
    const config = await configurationFor(flow.workspaceId);
    // The library reads the code and state from this URL; the redirect URI must be the one sent.
    const current = new URL(flow.redirectUri);
    current.search = callbackUrl.search;
    let claims: Oidc.IDToken;
    const oidc = await loadOpenidClient();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
    } catch (error) {
      throw refused(`the identity provider's answer did not validate (${(error as Error).message}).`);
    }
    const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
    if (!email) throw refused('the identity provider did not share an email address.');
    if (claims.email_verified !== true) throw refused(`the identity provider has not verified ${email}.`);
    const domain = emailDomain(email);
    const verified = await deps.pool.query(
      'SELECT 1 FROM sso_domains WHERE workspace_id = $1 AND domain = $2 AND verified_at IS NOT NULL',
      [flow.workspaceId, domain],
    );
    if (!verified.rowCount) throw refused(`${domain} is not a verified domain of this workspace.`);

    const subject = typeof claims.sub === 'string' && claims.sub ? claims.sub : null;
    if (!subject) throw refused('the identity provider did not name the person (no sub).');
    const issuer = claims.iss;
    const userId = flow.linkUserId
      ? await link(flow.workspaceId, flow.linkUserId, { issuer, subject, email })
      : await identify(flow.workspaceId, {
          issuer,
          subject,
          email,
          name: typeof claims.name === 'string' ? claims.name : email.split('@')[0]!,
        });
    const session = await startSession(deps.pool, userId, null, { ssoWorkspaceId: flow.workspaceId });
    await recordPersonAudit(deps.pool, {
      userId,
      action: 'session.signed_in',
      details: { method: 'sso', issuer },
      onlyWorkspaceId: flow.workspaceId,
    });
    return { ...session, clearCookie, returnTo: flow.returnTo ?? null };
  }

  interface Identity {
    issuer: string;
    subject: string;
    email: string;
  }

  const linkedAccount = async (identity: Identity) =>
    (
      await deps.pool.query<{ user_id: string }>(
        'SELECT user_id FROM user_identities WHERE issuer = $1 AND subject = $2',
        [identity.issuer, identity.subject],
      )
    ).rows[0]?.user_id ?? null;

  async function bind(workspaceId: string, userId: string, identity: Identity, how: string) {
    await deps.pool.query(
      'INSERT INTO user_identities (id, user_id, workspace_id, issuer, subject) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (issuer, subject) DO NOTHING',
      [newId('identity'), userId, workspaceId, identity.issuer, identity.subject],
    );
    await recordAudit(deps.prisma, {
      workspaceId,
      actor: userId,
      action: 'sso_identity.linked',
      target: userId,
      details: { issuer: identity.issuer, subject: identity.subject, email: identity.email, how },
    });
  }

  async function ensureMember(workspaceId: string, userId: string, email: string) {
    const membership = await deps.prisma.membership.findUnique({
      where: { workspaceId_userId: { workspaceId, userId } },
    });
    if (membership) return;
    await deps.prisma.membership.create({ data: { id: newId('membership'), workspaceId, userId, role: 'member' } });
    await recordAudit(deps.prisma, {
      workspaceId,
      actor: userId,
      action: 'member.joined_via_sso',
      target: userId,
      details: { email },
    });
  }

  /** The account behind a provider's identity: its bound account, a new person, or an owner-approved link; never an email match. */
  async function identify(workspaceId: string, identity: Identity & { name: string }): Promise<string> {
    const bound = await linkedAccount(identity);
    if (bound) {
      await ensureMember(workspaceId, bound, identity.email);
      return bound;
    }
    const existing = await deps.prisma.user.findFirst({
      where: { email: { equals: identity.email, mode: 'insensitive' } },
      select: { id: true },
    });
    if (existing) {
      const approval = await deps.pool.query(
        'DELETE FROM sso_link_approvals WHERE workspace_id = $1 AND user_id = $2 AND expires_at > now() RETURNING approved_by',
        [workspaceId, existing.id],
      );
      if (!approval.rowCount) {
        throw refused(
          `an account with ${identity.email} already exists. Sign in with your password and choose "Link company sign-in" in Settings, or ask an owner of this workspace to approve the link.`,
        );
      }
      await bind(workspaceId, existing.id, identity, 'owner_approved');
      return existing.id;
    }
    const user = await deps.prisma.user.create({
      data: { id: newId('user'), email: identity.email, name: identity.name.slice(0, 200) },
    });
    await ensureMember(workspaceId, user.id, identity.email);
    await bind(workspaceId, user.id, identity, 'first_sign_in');
    return user.id;
  }

  /** A signed-in person proves they also hold this provider identity; it must name their own address. */
  async function link(workspaceId: string, userId: string, identity: Identity): Promise<string> {
    const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
    if (user.email.toLowerCase() !== identity.email)
      throw refused(`the identity provider signed in ${identity.email}, not ${user.email}.`);
    const bound = await linkedAccount(identity);
    if (bound && bound !== userId) throw refused('this company identity is already linked to another account.');
    const member = await deps.prisma.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
    if (!member) throw refused('you are not a member of this workspace.');
    if (!bound) await bind(workspaceId, userId, identity, 'self');
    return userId;
  }

  return { start, startLink, finish };
}

/** An owner approves that a member's next company sign-in links to their existing account (7 days). */
export function approveLink(
  deps: { prisma: PrismaClient },
  input: { workspaceId: string; email: string; actor: Actor },
) {
  return adminCommand(
    deps.prisma,
    input,
    { what: 'approve company sign-in links', ownerOnly: true },
    async ({ tx, actorId, audit }) => {
      const member = await tx.membership.findFirst({
        where: { workspaceId: input.workspaceId, user: { email: { equals: input.email, mode: 'insensitive' } } },
        select: { userId: true },
      });
      if (!member) throw new UsageError(`${input.email} is not a member of this workspace`, 'not_found');
      const expiresAt = new Date(Date.now() + LINK_APPROVAL_TTL_MS);
      const approval = { approvedBy: actorId, expiresAt };
      await tx.ssoLinkApproval.upsert({
        where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: member.userId } },
        create: { workspaceId: input.workspaceId, userId: member.userId, ...approval },
        update: approval,
      });
      await audit('sso_identity.link_approved', member.userId, { email: input.email });
      return { email: input.email, approvedUntil: expiresAt.toISOString() };
    },
  );
}
