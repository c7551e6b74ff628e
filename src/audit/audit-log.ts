// The audit log: every change to a workspace's keys, webhooks, rules and plan, with who did it.
import type pg from 'pg';
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

const RECORD = sqlStatement<never, Required<AuditEntry> & { id: string; details: string }>(
  'audit.record',
  (param) => `INSERT INTO audit_log (id, workspace_id, actor, action, target, details)
    VALUES (${param('id')}, ${param('workspaceId')}, ${param('actor')}, ${param('action')}, ${param('target')},
      ${param('details')}::jsonb)`,
);

/**
 * An entry outside an admin command's transaction (a consent, a revocation, the webhook worker, a single sign-on),
 * in SQL: the first Prisma query of an instance loads its WebAssembly query compiler, 20–27 MB of resident memory
 * that an instance which only connects MCP clients and serves reads would otherwise carry
 * (docs/decisions/quiet-memory.md).
 */
export async function recordAudit(db: SqlRunner, entry: AuditEntry): Promise<void> {
  await runStatement(db, RECORD, { ...entry, id: newId('audit'), details: JSON.stringify(entry.details ?? {}) });
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
