// Who is changing a workspace's settings. Owners and admins may; members may read only. The
// operator at the CLI (no --as) is trusted and recorded as "operator".
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { UsageError } from '../errors/index.js';

export interface Actor {
  /** An operator at the CLI without --as, or a member of the workspace by email. */
  email: string | null;
  /** A signed-in person acts in their active workspace only: other workspaces' things are not found. */
  workspaceId?: string;
  /** The app acting for the person (an MCP client's name), recorded in the audit log. */
  via?: string;
}

export const OPERATOR: Actor = { email: null };

/** The actor's label for the audit log (a user id or "operator"); refuses members and strangers (and admins, for owner-only changes). */
export async function authorizeAdmin(prisma: PrismaClient, workspaceId: string, actor: Actor, what: string, options: { ownerOnly?: boolean } = {}): Promise<string> {
  if (actor.workspaceId && actor.workspaceId !== workspaceId) throw new UsageError('not found in this workspace', 'not_found');
  if (!actor.email) return 'operator';
  const membership = await prisma.membership.findFirst({ where: { workspaceId, user: { email: actor.email } }, select: { role: true, userId: true } });
  if (!membership) throw new UsageError(`${actor.email} is not a member of this workspace`, 'forbidden');
  if (membership.role === 'member') throw new UsageError(`${actor.email} is a member; only owners and admins can ${what}`, 'forbidden');
  if (options.ownerOnly && membership.role !== 'owner') throw new UsageError(`${actor.email} is an admin; only owners can ${what}`, 'forbidden');
  return membership.userId;
}
