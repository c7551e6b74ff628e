// The project an admin command on prompts or domains changes, found for its actor, and the policy those
// commands run under. Owners and admins only: prompts and domains shape what every report of the project counts.
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { isIdOf } from '../../db/ids.js';
import { UsageError } from '../../errors/index.js';
import type { Actor, AdminCommandPolicy } from '../../workspaces/index.js';

export const PROMPTS_AND_DOMAINS: AdminCommandPolicy = { what: 'manage prompts and domains' };

/**
 * The workspace of a project the actor may see: theirs (a session or token) or, for the operator, the
 * project's own.
 */
export async function workspaceOfProject(
  prisma: PrismaClient,
  projectId: string,
  actor: Actor,
): Promise<{ id: string; workspaceId: string; competitors: string[] }> {
  if (!isIdOf('project', projectId)) throw new UsageError(`${projectId} is not a project id (prj_…)`);
  const project = await prisma.aiProject.findFirst({
    where: { id: projectId, archivedAt: null, ...(actor.workspaceId ? { workspaceId: actor.workspaceId } : {}) },
    select: { id: true, workspaceId: true, competitors: true },
  });
  if (!project) throw new UsageError(`no AI-visibility project ${projectId}`, 'not_found');
  return project;
}
