// The audit log: every change to a workspace's keys, webhooks, rules and plan, with who did it.
import type pg from 'pg';
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
  createdAt: Date;
}

/** The newest entries of a workspace ($1) with the acting person's email where the actor is a user; $2 = how many. */
export const AUDIT_LOG_SQL = `
  SELECT a.id, a.actor, u.email AS "actorEmail", a.action, a.target, a.details, a.created_at AS "createdAt"
  FROM audit_log a LEFT JOIN users u ON u.id = a.actor
  WHERE a.workspace_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2`;

export async function listAuditLog(pool: pg.Pool, workspaceId: string, limit = 100): Promise<AuditView[]> {
  return (await pool.query<AuditView>(AUDIT_LOG_SQL, [workspaceId, limit])).rows;
}
