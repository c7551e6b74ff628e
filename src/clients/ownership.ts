// Whether a client id given to a change (a report's or project's client) belongs to the workspace.
import type { Prisma } from '../db/generated/prisma/client.js';
import { UsageError } from '../errors/index.js';

export async function assertClientOfWorkspace(
  tx: Pick<Prisma.TransactionClient, 'client'>,
  workspaceId: string,
  clientId: string | null | undefined,
): Promise<void> {
  if (
    clientId &&
    !(await tx.client.findFirst({ where: { id: clientId, workspaceId, archivedAt: null }, select: { id: true } }))
  )
    throw new UsageError(`no client ${clientId} in this workspace`, 'not_found');
}
