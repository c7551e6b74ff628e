// A workspace's OpenID Connect identity provider: issuer, client id, and the client secret,
// sealed with APP_SECRET_KEY. Owners/admins set it; nobody reads the secret back.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import { UsageError } from '../errors/index.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand, plansWith, type AdminCommandPolicy } from '../workspaces/index.js';
import { urlRefusal, type TargetPolicy } from '../http/outbound-guard.js';
import { createOutboundFetch } from '../http/outbound-fetch.js';

/** Where identity providers may live: https on 443 at public addresses (tests and local development widen it). */
export const identityProviderPolicy = (config: {
  OIDC_ALLOW_HTTP_ISSUERS: boolean;
  OUTBOUND_ALLOW_PRIVATE_TARGETS: boolean;
}): TargetPolicy => ({
  allowHttp: config.OIDC_ALLOW_HTTP_ISSUERS,
  allowPrivate: config.OUTBOUND_ALLOW_PRIVATE_TARGETS,
  ports: [443],
});

// Calls to identity providers: a slow or huge answer must not hold a request or the memory.
const IDENTITY_PROVIDER_TIMEOUT_MS = 5_000;
const IDENTITY_PROVIDER_MAX_BYTES = 256 * 1024;

/** Every call to an identity provider (discovery, keys, tokens) goes through the outbound guard under its policy. */
export const identityProviderFetch = (config: Parameters<typeof identityProviderPolicy>[0]) =>
  createOutboundFetch({
    policy: identityProviderPolicy(config),
    timeoutMs: IDENTITY_PROVIDER_TIMEOUT_MS,
    maxBytes: IDENTITY_PROVIDER_MAX_BYTES,
  });

export const SSO_PLANS: readonly Plan[] = plansWith('sso');

export const clientSecretContext = (workspaceId: string) => `sso_connection:${workspaceId}:client_secret`;

/** Changing a workspace's single sign-on: owners and admins, on the plans that include it. */
export const MANAGE_SSO: AdminCommandPolicy = {
  what: 'manage single sign-on',
  feature: 'sso',
};

export interface ConnectionView {
  issuer: string;
  clientId: string;
  updatedAt: string;
}

export async function getConnection(prisma: PrismaClient, workspaceId: string): Promise<ConnectionView | null> {
  const row = await prisma.ssoConnection.findUnique({ where: { workspaceId } });
  return row ? { issuer: row.issuer, clientId: row.clientId, updatedAt: row.updatedAt.toISOString() } : null;
}

export function issuerProblem(issuer: string, policy: TargetPolicy): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'the issuer must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) return 'the issuer must use https';
  if (url.username || url.password || url.search || url.hash)
    return 'the issuer must not carry credentials, a query or a fragment';
  const refusal = urlRefusal(issuer, policy);
  return refusal ? `the issuer must be a public address (${refusal})` : null;
}

export async function setConnection(
  deps: { prisma: PrismaClient; box: SecretBox; issuerPolicy: TargetPolicy },
  input: { workspaceId: string; issuer: string; clientId: string; clientSecret: string | null; actor: Actor },
): Promise<ConnectionView> {
  const problem = issuerProblem(input.issuer, deps.issuerPolicy);
  if (problem) throw new UsageError(problem);
  if (!input.clientId || input.clientId.length > 500)
    throw new UsageError('a client id of 1-500 characters is required');
  const row = await adminCommand(deps.prisma, input, MANAGE_SSO, async ({ tx, audit }) => {
    const existing = await tx.ssoConnection.findUnique({ where: { workspaceId: input.workspaceId } });
    // The secret is write-only: keep the stored one when the form leaves it empty.
    if (!input.clientSecret && !existing) throw new UsageError('the client secret is required');
    const clientSecret = input.clientSecret
      ? deps.box.seal(input.clientSecret, clientSecretContext(input.workspaceId))
      : existing!.clientSecret;
    // Exactly as given: discovery compares it byte for byte with the provider's issuer.
    const issuer = input.issuer;
    const issuerChanged = existing !== null && existing.issuer !== issuer;
    const hostChanged = existing !== null && new URL(existing.issuer).host !== new URL(issuer).host;
    // Identities and sessions vouched for by the old provider mean nothing under a new one; a
    // provider on another host must prove again that the workspace owns its domains.
    if (issuerChanged) {
      await tx.userIdentity.deleteMany({ where: { workspaceId: input.workspaceId } });
      await tx.session.deleteMany({ where: { ssoWorkspaceId: input.workspaceId } });
    }
    if (hostChanged)
      await tx.ssoDomain.updateMany({ where: { workspaceId: input.workspaceId }, data: { verifiedAt: null } });
    const saved = await tx.ssoConnection.upsert({
      where: { workspaceId: input.workspaceId },
      create: { workspaceId: input.workspaceId, issuer, clientId: input.clientId, clientSecret },
      update: { issuer, clientId: input.clientId, clientSecret, updatedAt: new Date() },
    });
    await audit('sso_connection.set', input.workspaceId, {
      issuer,
      clientId: input.clientId,
      secretChanged: Boolean(input.clientSecret),
      identitiesUnlinked: issuerChanged,
      domainsNeedVerification: hostChanged,
    });
    return saved;
  });
  return { issuer: row.issuer, clientId: row.clientId, updatedAt: row.updatedAt.toISOString() };
}

export async function requiresSso(prisma: PrismaClient, workspaceId: string): Promise<boolean> {
  return (await prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { requireSso: true } }))
    .requireSso;
}

/** "Require SSO": members whose address is in a verified domain can no longer sign in with a password (owners can). */
export async function setRequireSso(
  prisma: PrismaClient,
  input: { workspaceId: string; enabled: boolean; actor: Actor },
) {
  await adminCommand(prisma, input, MANAGE_SSO, async ({ tx, audit }) => {
    await tx.workspace.update({ where: { id: input.workspaceId }, data: { requireSso: input.enabled } });
    await audit('sso.require_set', input.workspaceId, { requireSso: input.enabled });
  });
  return { requireSso: input.enabled };
}
