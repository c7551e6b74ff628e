// The MCP clients people connected to a workspace (their OAuth grants), for settings: listed
// with the app's name and who consented, and revocable — revoking deletes the grant and every
// token issued under it, so the app's next request is 401.
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { UsageError } from '../errors/index.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand } from '../workspaces/index.js';
import { OAUTH_INVALIDATION_TARGET } from './connector.js';

export interface GrantView {
  id: string;
  clientId: string;
  clientName: string;
  userEmail: string | null;
  createdAt: string | null;
}

// Grant payloads hold accountId = "<userId>.<workspaceId>" (see authorization-server.ts).
const GRANTS_OF_WORKSPACE = `
  SELECT g.id, g.payload->>'clientId' AS "clientId", coalesce(c.payload->>'client_name', g.payload->>'clientId') AS "clientName",
         u.email AS "userEmail", to_timestamp((g.payload->>'iat')::bigint) AS "createdAt"
  FROM oauth_models g
  LEFT JOIN oauth_models c ON c.model = 'Client' AND c.id = g.payload->>'clientId'
  LEFT JOIN users u ON u.id = split_part(g.payload->>'accountId', '.', 1)
  WHERE g.model = 'Grant' AND split_part(g.payload->>'accountId', '.', 2) = $1 AND (g.expires_at IS NULL OR g.expires_at > now())`;

export async function listGrants(pool: pg.Pool, workspaceId: string): Promise<GrantView[]> {
  const result = await pool.query<GrantView & { createdAt: Date | null }>(`${GRANTS_OF_WORKSPACE} ORDER BY 5 DESC NULLS LAST`, [workspaceId]);
  return result.rows.map((row) => ({ ...row, createdAt: row.createdAt?.toISOString() ?? null }));
}

export async function revokeGrant(deps: { pool: pg.Pool; prisma: PrismaClient; notify(target: string): Promise<void> }, input: { workspaceId: string; grantId: string; actor: Actor }) {
  await adminCommand(deps.prisma, input, { what: 'disconnect MCP clients' }, async ({ tx, audit }) => {
    const grant = (await tx.$queryRawUnsafe<GrantView[]>(`${GRANTS_OF_WORKSPACE} AND g.id = $2`, input.workspaceId, input.grantId))[0];
    if (!grant) throw new UsageError(`no connected app ${input.grantId} in this workspace`, 'not_found');
    await tx.$executeRaw`DELETE FROM oauth_models WHERE grant_id = ${input.grantId} OR (model = 'Grant' AND id = ${input.grantId})`;
    await audit('mcp.client_disconnected', grant.clientId, { clientName: grant.clientName, grantId: input.grantId });
  });
  await deps.notify(OAUTH_INVALIDATION_TARGET);
  return { id: input.grantId, revoked: true };
}
