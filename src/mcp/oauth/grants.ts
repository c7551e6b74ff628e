// The MCP clients people connected to a workspace (their OAuth grants), for settings: listed
// with the app's name and who consented, and revocable — revoking deletes the grant and every
// token issued under it, so the app's next request is 401.
import type pg from 'pg';
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { UsageError } from '../../errors/index.js';
import type { Actor } from '../../workspaces/index.js';
import { adminCommand } from '../../workspaces/index.js';
import { OAUTH_INVALIDATION_TARGET } from '../connector.js';

export interface GrantView {
  id: string;
  clientId: string;
  clientName: string;
  userEmail: string | null;
  createdAt: string | null;
}

// The mcp_grants view (migration 0010) reads oidc-provider's Grant rows with their workspace.
const GRANTS_OF_WORKSPACE = `SELECT id, client_id AS "clientId", client_name AS "clientName",
  user_email AS "userEmail", created_at AS "createdAt" FROM mcp_grants WHERE workspace_id = $1`;

export async function listGrants(pool: pg.Pool, workspaceId: string): Promise<GrantView[]> {
  const result = await pool.query<GrantView & { createdAt: Date | null }>(
    `${GRANTS_OF_WORKSPACE} ORDER BY created_at DESC NULLS LAST`,
    [workspaceId],
  );
  return result.rows.map((row) => ({ ...row, createdAt: row.createdAt?.toISOString() ?? null }));
}

export async function revokeGrant(
  deps: { pool: pg.Pool; prisma: PrismaClient; notify(target: string): Promise<void> },
  input: { workspaceId: string; grantId: string; actor: Actor },
) {
  await adminCommand(deps.prisma, input, { what: 'disconnect MCP clients' }, async ({ tx, audit }) => {
    const grant = (
      await tx.$queryRawUnsafe<GrantView[]>(`${GRANTS_OF_WORKSPACE} AND id = $2`, input.workspaceId, input.grantId)
    )[0];
    if (!grant) throw new UsageError(`no connected app ${input.grantId} in this workspace`, 'not_found');
    await tx.$executeRaw`DELETE FROM oauth_models
      WHERE grant_id = ${input.grantId} OR (model = 'Grant' AND id = ${input.grantId})`;
    await audit('mcp.client_disconnected', grant.clientId, { clientName: grant.clientName, grantId: input.grantId });
  });
  await deps.notify(OAUTH_INVALIDATION_TARGET);
  return { id: input.grantId, revoked: true };
}
