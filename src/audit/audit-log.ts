// The audit log: every change to a workspace's keys, webhooks, rules and plan, with who did it.
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { tenantStatement } from '../db/tenant-sql.js';
import { workspaceScopes } from '../db/workspace-scope.js';

export interface AuditEntry {
  workspaceId: string;
  actor: string;
  action: string;
  target: string;
  details?: Record<string, unknown>;
}

type AuditWriter = Pick<PrismaClient, 'auditLogEntry'>;

export async function recordAudit(prisma: AuditWriter, entry: AuditEntry): Promise<void> {
  await prisma.auditLogEntry.create({
    data: {
      id: newId('audit'),
      workspaceId: entry.workspaceId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      details: (entry.details ?? {}) as object,
    },
  });
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

/** The newest entries of the workspace with the acting person's email where the actor is a user; $2 = how many. */
export const AUDIT_LOG = tenantStatement<AuditView>(
  'audit.list',
  (
    workspace,
  ) => `SELECT a.id, a.actor, u.email AS "actorEmail", a.action, a.target, a.details, a.created_at AS "createdAt"
    FROM audit_log a LEFT JOIN users u ON u.id = a.actor
    WHERE ${workspace('a')} ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
);

export function listAuditLog(pool: pg.Pool, workspaceId: string, limit = 100): Promise<AuditView[]> {
  return workspaceScopes(pool)(workspaceId).rows(AUDIT_LOG, [limit]);
}

/**
 * An event about a person rather than a workspace (sign-ins, locks): recorded in each workspace they belong to (or
 * one), so its admins see it.
 */
export async function recordPersonAudit(
  db: Pick<pg.Pool, 'query'>,
  entry: { userId: string; action: string; details?: Record<string, unknown>; onlyWorkspaceId?: string },
): Promise<void> {
  const workspaces = (
    await db.query<{ workspace_id: string }>(
      'SELECT workspace_id FROM memberships WHERE user_id = $1 AND ($2::text IS NULL OR workspace_id = $2)',
      [entry.userId, entry.onlyWorkspaceId ?? null],
    )
  ).rows;
  if (!workspaces.length) return;
  await db.query(
    `INSERT INTO audit_log (id, workspace_id, actor, action, target, details)
     SELECT id, workspace_id, $3, $4, $3, $5::jsonb FROM unnest($1::text[], $2::text[]) AS e(id, workspace_id)`,
    [
      workspaces.map(() => newId('audit')),
      workspaces.map((row) => row.workspace_id),
      entry.userId,
      entry.action,
      JSON.stringify(entry.details ?? {}),
    ],
  );
}
