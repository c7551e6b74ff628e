// The workspace's switch for MCP write tools: off until an owner or admin turns it on.
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import type { Actor } from '../../workspaces/index.js';
import { adminCommand } from '../../workspaces/index.js';
import type { Notify } from '../../workspaces/index.js';

export async function mcpWriteActions(prisma: PrismaClient, workspaceId: string): Promise<boolean> {
  return (await prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { mcpWriteActions: true } }))
    .mcpWriteActions;
}

/** Changes the switch and tells every instance, whose cached MCP tokens carry it. */
export async function setMcpWriteActions(
  prisma: PrismaClient,
  notify: Notify,
  input: { workspaceId: string; enabled: boolean; actor: Actor },
): Promise<{ writeActions: boolean }> {
  await adminCommand(prisma, input, { what: 'change MCP write actions' }, async ({ tx, audit }) => {
    await tx.workspace.update({ where: { id: input.workspaceId }, data: { mcpWriteActions: input.enabled } });
    await audit(input.enabled ? 'mcp.write_actions_enabled' : 'mcp.write_actions_disabled', input.workspaceId);
  });
  await notify(`*:${input.workspaceId}`);
  return { writeActions: input.enabled };
}
