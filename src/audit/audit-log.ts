// The audit log: every change to a workspace's keys, webhooks, rules and plan, with who did it.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';

export interface AuditEntry {
  workspaceId: string;
  actor: string;
  action: string;
  target: string;
  details?: Record<string, unknown>;
}

type AuditWriter = Pick<PrismaClient, 'auditLogEntry'>;

export async function recordAudit(prisma: AuditWriter, entry: AuditEntry): Promise<void> {
  await prisma.auditLogEntry.create({ data: { id: newId('audit'), workspaceId: entry.workspaceId, actor: entry.actor, action: entry.action, target: entry.target, details: (entry.details ?? {}) as object } });
}
