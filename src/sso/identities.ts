// Who signs in is the provider's (issuer, subject), bound to one account in user_identities —
// never an email match on an existing account: a workspace's admin controls their provider and
// could make it assert anyone's address. An unknown identity creates a new person only when no
// account holds the address; otherwise the person links it once from a signed-in session, or an
// owner of the workspace approves the link for a member (link-approvals.ts).
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { runStatement, sqlStatement } from '../db/sql-runner.js';
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

const LINKED_ACCOUNT = sqlStatement<{ user_id: string }, { issuer: string; subject: string }>(
  'sso.linked-account',
  (param) => `SELECT user_id FROM user_identities WHERE issuer = ${param('issuer')} AND subject = ${param('subject')}`,
);

const BIND_IDENTITY = sqlStatement<
  never,
  { id: string; userId: string; workspaceId: string; issuer: string; subject: string }
>(
  'sso.bind-identity',
  (param) => `INSERT INTO user_identities (id, user_id, workspace_id, issuer, subject)
     VALUES (${param('id')}, ${param('userId')}, ${param('workspaceId')}, ${param('issuer')}, ${param('subject')})
     ON CONFLICT (issuer, subject) DO NOTHING`,
);

// The approval is spent by taking it.
const TAKE_LINK_APPROVAL = sqlStatement<{ approved_by: string }, { workspaceId: string; userId: string }>(
  'sso.take-link-approval',
  (param) => `DELETE FROM sso_link_approvals
     WHERE workspace_id = ${param('workspaceId')} AND user_id = ${param('userId')} AND expires_at > now()
     RETURNING approved_by`,
);

const linkedAccount = async (deps: IdentityDeps, identity: Identity) =>
  (await runStatement(deps.pool, LINKED_ACCOUNT, { issuer: identity.issuer, subject: identity.subject })).rows[0]
    ?.user_id ?? null;

async function bind(deps: IdentityDeps, workspaceId: string, userId: string, identity: Identity, how: string) {
  await runStatement(deps.pool, BIND_IDENTITY, {
    id: newId('identity'),
    userId,
    workspaceId,
    issuer: identity.issuer,
    subject: identity.subject,
  });
  await recordAudit(deps.pool, {
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
  await recordAudit(deps.pool, {
    workspaceId,
    actor: userId,
    action: 'member.joined_via_sso',
    target: userId,
    details: { email },
  });
}

/**
 * An address as a person reads it: accents and marks dropped, the dotless i read as i. "EXİSTING@corp.com"
 * lowercases to "exi̇sting@corp.com" (an i with a combining dot), another string that reads as existing@corp.com.
 */
const skeletonOf = (email: string) => email.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase();

/**
 * The account holding this address (in any case), else one of its domain reading as it does: a new account would be
 * that one's look-alike.
 */
async function accountReadingAs(deps: IdentityDeps, email: string) {
  const sameDomain = await deps.prisma.user.findMany({
    where: { email: { endsWith: email.slice(email.lastIndexOf('@')), mode: 'insensitive' } },
    select: { id: true, email: true },
  });
  const skeleton = skeletonOf(email);
  return (
    sameDomain.find((user) => user.email.toLowerCase() === email) ??
    sameDomain.find((user) => skeletonOf(user.email) === skeleton) ??
    null
  );
}

/** An existing account with the identity's address, linked only when an owner approved it. */
async function approvedLink(deps: IdentityDeps, workspaceId: string, userId: string, identity: Identity) {
  const approval = await runStatement(deps.pool, TAKE_LINK_APPROVAL, { workspaceId, userId });
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
  const existing = await accountReadingAs(deps, identity.email);
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
