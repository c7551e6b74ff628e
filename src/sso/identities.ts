// Who signs in is the provider's (issuer, subject), bound to one account in user_identities —
// never an email match on an existing account: a workspace's admin controls their provider and
// could make it assert anyone's address. An unknown identity creates a new person only when no
// account holds the address; otherwise the person links it once from a signed-in session, or an
// owner of the workspace approves the link for a member (link-approvals.ts).
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { recordAudit } from '../audit/index.js';
import { refused } from './refused.js';

export interface IdentityDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
}

export interface Identity {
  issuer: string;
  subject: string;
  email: string;
}

const linkedAccount = async (deps: IdentityDeps, identity: Identity) =>
  (
    await deps.pool.query<{ user_id: string }>(
      'SELECT user_id FROM user_identities WHERE issuer = $1 AND subject = $2',
      [identity.issuer, identity.subject],
    )
  ).rows[0]?.user_id ?? null;

async function bind(deps: IdentityDeps, workspaceId: string, userId: string, identity: Identity, how: string) {
  await deps.pool.query(
    `INSERT INTO user_identities (id, user_id, workspace_id, issuer, subject) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (issuer, subject) DO NOTHING`,
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

async function ensureMember(deps: IdentityDeps, workspaceId: string, userId: string, email: string) {
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

/** An existing account with the identity's address, linked only when an owner approved it. */
async function approvedLink(deps: IdentityDeps, workspaceId: string, userId: string, identity: Identity) {
  const approval = await deps.pool.query(
    `DELETE FROM sso_link_approvals WHERE workspace_id = $1 AND user_id = $2 AND expires_at > now()
     RETURNING approved_by`,
    [workspaceId, userId],
  );
  if (!approval.rowCount) {
    throw refused(
      `an account with ${identity.email} already exists. Sign in with your password and choose ` +
        `"Link company sign-in" in Settings, or ask an owner of this workspace to approve the link.`,
    );
  }
  await bind(deps, workspaceId, userId, identity, 'owner_approved');
  return userId;
}

/** The account behind a provider's identity: its bound account, a new person, or an owner-approved link. */
export async function identify(
  deps: IdentityDeps,
  workspaceId: string,
  identity: Identity & { name: string },
): Promise<string> {
  const bound = await linkedAccount(deps, identity);
  if (bound) {
    await ensureMember(deps, workspaceId, bound, identity.email);
    return bound;
  }
  const existing = await deps.prisma.user.findFirst({
    where: { email: { equals: identity.email, mode: 'insensitive' } },
    select: { id: true },
  });
  if (existing) return approvedLink(deps, workspaceId, existing.id, identity);
  const user = await deps.prisma.user.create({
    data: { id: newId('user'), email: identity.email, name: identity.name.slice(0, 200) },
  });
  await ensureMember(deps, workspaceId, user.id, identity.email);
  await bind(deps, workspaceId, user.id, identity, 'first_sign_in');
  return user.id;
}

/** A signed-in person proves they also hold this provider identity; it must name their own address. */
export async function link(deps: IdentityDeps, workspaceId: string, userId: string, identity: Identity) {
  const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  if (user.email.toLowerCase() !== identity.email)
    throw refused(`the identity provider signed in ${identity.email}, not ${user.email}.`);
  const bound = await linkedAccount(deps, identity);
  if (bound && bound !== userId) throw refused('this company identity is already linked to another account.');
  const member = await deps.prisma.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
  if (!member) throw refused('you are not a member of this workspace.');
  if (!bound) await bind(deps, workspaceId, userId, identity, 'self');
  return userId;
}
