// Marking a signal as seen and dealt with: members may (signals are the workspace's news), and
// it is audited. Acknowledging twice changes nothing more.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { isIdOf } from '../db/ids.js';
import { UsageError } from '../errors/index.js';
import { adminCommand, type Actor, type AdminCommandPolicy } from '../workspaces/index.js';

const SIGNALS: AdminCommandPolicy = { what: 'acknowledge signals', members: true };

export function acknowledgeSignal(
  prisma: PrismaClient,
  input: { workspaceId: string; signalId: string; actor: Actor },
) {
  if (!isIdOf('signal', input.signalId)) throw new UsageError(`${input.signalId} is not a signal id (sig_…)`);
  return adminCommand(prisma, input, SIGNALS, async ({ tx, actorId, audit }) => {
    const signal = await tx.signal.findFirst({ where: { id: input.signalId, workspaceId: input.workspaceId } });
    if (!signal) throw new UsageError(`no signal ${input.signalId} in this workspace`, 'not_found');
    if (signal.acknowledgedAt)
      return {
        id: signal.id,
        acknowledgedAt: signal.acknowledgedAt.toISOString(),
        acknowledgedBy: signal.acknowledgedBy,
      };
    const acknowledged = await tx.signal.update({
      where: { id: signal.id },
      data: { acknowledgedAt: new Date(), acknowledgedBy: actorId },
    });
    await audit('signal.acknowledged', signal.id, { kind: signal.kind, projectId: signal.projectId });
    return {
      id: acknowledged.id,
      acknowledgedAt: acknowledged.acknowledgedAt!.toISOString(),
      acknowledgedBy: acknowledged.acknowledgedBy,
    };
  });
}
