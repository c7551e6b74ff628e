// The audit log: every change to a workspace's keys, webhooks, rules and plan, with who did it.
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { tenantStatement } from '../db/tenant-sql.js';
import { workspaceScopes, type WorkspaceScope } from '../db/workspace-scope.js';
import { runStatement, sqlStatement, type SqlRunner } from '../db/sql-runner.js';

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

/** The newest entries of the workspace with the acting person's email where the actor is a user. */
const AUDIT_LOG = tenantStatement<AuditView, { limit: number }>(
  'audit.list',
  (workspace, param) => `SELECT a.id, a.actor, u.email AS "actorEmail", a.action, a.target, a.details,
      a.created_at AS "createdAt"
    FROM audit_log a LEFT JOIN users u ON u.id = a.actor
    WHERE ${workspace('a')} ORDER BY a.created_at DESC, a.id DESC LIMIT ${param('limit')}`,
);

/** The workspace's newest `limit` entries (the graph, settings and the CLI read them alike). */
export const auditEntries = (scope: WorkspaceScope, limit: number): Promise<AuditView[]> =>
  scope.rows(AUDIT_LOG, { limit });

export function listAuditLog(pool: pg.Pool, workspaceId: string, limit = 100): Promise<AuditView[]> {
  return auditEntries(workspaceScopes(pool)(workspaceId), limit);
}

const MEMBER_WORKSPACES = sqlStatement<{ workspace_id: string }, { userId: string; onlyWorkspaceId: string | null }>(
  'audit.person-workspaces',
  (param) => `SELECT workspace_id FROM memberships
    WHERE user_id = ${param('userId')}
      AND (${param('onlyWorkspaceId')}::text IS NULL OR workspace_id = ${param('onlyWorkspaceId')})`,
);

interface PersonEntries {
  ids: string[];
  workspaceIds: string[];
  userId: string;
  action: string;
  details: string;
}

// One entry per workspace, the person as both actor and target.
const RECORD_PERSON = sqlStatement<never, PersonEntries>(
  'audit.record-person',
  (param) => `INSERT INTO audit_log (id, workspace_id, actor, action, target, details)
    SELECT id, workspace_id, ${param('userId')}, ${param('action')}, ${param('userId')}, ${param('details')}::jsonb
    FROM unnest(${param('ids')}::text[], ${param('workspaceIds')}::text[]) AS e(id, workspace_id)`,
);

/**
 * An event about a person rather than a workspace (sign-ins, locks): recorded in each workspace they
 * belong to (or one), so its admins see it.
 */
export async function recordPersonAudit(
  db: SqlRunner,
  entry: { userId: string; action: string; details?: Record<string, unknown>; onlyWorkspaceId?: string },
): Promise<void> {
  const { rows } = await runStatement(db, MEMBER_WORKSPACES, {
    userId: entry.userId,
    onlyWorkspaceId: entry.onlyWorkspaceId ?? null,
  });
  if (!rows.length) return;
  await runStatement(db, RECORD_PERSON, {
    ids: rows.map(() => newId('audit')),
    workspaceIds: rows.map((row) => row.workspace_id),
    userId: entry.userId,
    action: entry.action,
    details: JSON.stringify(entry.details ?? {}),
  });
}
