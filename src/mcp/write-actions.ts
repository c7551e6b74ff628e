// The workspace's switch for MCP write tools: off until an owner or admin turns it on.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { recordAudit } from '../audit/audit-log.js';
import { authorizeAdmin, type Actor } from '../workspaces/actor.js';
import type { Notify } from '../workspaces/service.js';

export async function mcpWriteActions(prisma: PrismaClient, workspaceId: string): Promise<boolean> {
  return (await prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { mcpWriteActions: true } })).mcpWriteActions;
}

/** Changes the switch and tells every instance, whose cached MCP tokens carry it. */
export async function setMcpWriteActions(prisma: PrismaClient, notify: Notify, input: { workspaceId: string; enabled: boolean; actor: Actor }): Promise<{ writeActions: boolean }> {
  const actorId = await authorizeAdmin(prisma, input.workspaceId, input.actor, 'change MCP write actions');
  await prisma.workspace.update({ where: { id: input.workspaceId }, data: { mcpWriteActions: input.enabled } });
  await notify(`*:${input.workspaceId}`);
  await recordAudit(prisma, { workspaceId: input.workspaceId, actor: actorId, action: input.enabled ? 'mcp.write_actions_enabled' : 'mcp.write_actions_disabled', target: input.workspaceId });
  return { writeActions: input.enabled };
}
