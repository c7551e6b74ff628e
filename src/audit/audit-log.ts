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

export interface AuditView {
  id: string;
  actor: string;
  actorEmail: string | null;
  action: string;
  target: string;
  details: Record<string, unknown>;
  createdAt: string;
}

/** The newest entries of a workspace, with the acting person's email where the actor is a user. */
export async function listAuditLog(prisma: PrismaClient, workspaceId: string, limit = 100): Promise<AuditView[]> {
  const entries = await prisma.auditLogEntry.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  const users = await prisma.user.findMany({ where: { id: { in: [...new Set(entries.map((entry) => entry.actor))] } }, select: { id: true, email: true } });
  const emails = new Map(users.map((user) => [user.id, user.email]));
  return entries.map((entry) => ({
    id: entry.id,
    actor: entry.actor,
    actorEmail: emails.get(entry.actor) ?? null,
    action: entry.action,
    target: entry.target,
    details: entry.details as Record<string, unknown>,
    createdAt: entry.createdAt.toISOString(),
  }));
}
