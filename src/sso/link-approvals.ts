// An owner approves that a member's next company sign-in links to their existing account.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { UsageError } from '../errors/index.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand } from '../workspaces/index.js';

const LINK_APPROVAL_TTL_MS = 7 * 86_400_000;

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
