// The MCP clients people connected to a workspace (their OAuth grants), for settings: listed
// with the app's name and who consented, and revocable — revoking deletes the grant and every
// token issued under it, so the app's next request is 401.
import type pg from 'pg';
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { UsageError } from '../../errors/index.js';
import type { Actor } from '../../workspaces/index.js';
import { adminCommand, sqlOf } from '../../workspaces/index.js';
import { runStatement, sqlStatement } from '../../db/sql-runner.js';
import { tenantStatement } from '../../db/tenant-sql.js';
import { workspaceScopes } from '../../db/workspace-scope.js';
import { OAUTH_INVALIDATION_TARGET } from '../connector.js';

export interface GrantView {
  id: string;
  clientId: string;
  clientName: string;
  userEmail: string | null;
  createdAt: string | null;
}

// The mcp_grants view (migration 0010) reads oidc-provider's Grant rows with their workspace.
const GRANT_COLUMNS = `id, client_id AS "clientId", client_name AS "clientName",
  user_email AS "userEmail", created_at AS "createdAt"`;

const GRANTS = tenantStatement<GrantView & { createdAt: Date | null }>(
  'mcp.grants',
  (workspace) => `SELECT ${GRANT_COLUMNS} FROM mcp_grants WHERE ${workspace()} ORDER BY created_at DESC NULLS LAST`,
);

const GRANT = sqlStatement<GrantView, { workspaceId: string; grantId: string }>(
  'mcp.grant',
  (param) => `SELECT ${GRANT_COLUMNS} FROM mcp_grants
    WHERE workspace_id = ${param('workspaceId')} AND id = ${param('grantId')}`,
);

// The grant and every token issued under it.
const DELETE_GRANT = sqlStatement<never, { grantId: string }>(
  'mcp.delete-grant',
  (param) => `DELETE FROM oauth_models
    WHERE grant_id = ${param('grantId')} OR (model = 'Grant' AND id = ${param('grantId')})`,
);

export async function listGrants(pool: pg.Pool, workspaceId: string): Promise<GrantView[]> {
  const rows = await workspaceScopes(pool)(workspaceId).rows(GRANTS);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt?.toISOString() ?? null }));
}

export async function revokeGrant(
  deps: { pool: pg.Pool; prisma: PrismaClient; notify(target: string): Promise<void> },
  input: { workspaceId: string; grantId: string; actor: Actor },
) {
  await adminCommand(deps.prisma, input, { what: 'disconnect MCP clients' }, async ({ tx, audit }) => {
    const sql = sqlOf(tx);
    const grant = (await runStatement(sql, GRANT, { workspaceId: input.workspaceId, grantId: input.grantId })).rows[0];
    if (!grant) throw new UsageError(`no connected app ${input.grantId} in this workspace`, 'not_found');
    await runStatement(sql, DELETE_GRANT, { grantId: input.grantId });
    await audit('mcp.client_disconnected', grant.clientId, { clientName: grant.clientName, grantId: input.grantId });
  });
  await deps.notify(OAUTH_INVALIDATION_TARGET);
  return { id: input.grantId, revoked: true };
}
