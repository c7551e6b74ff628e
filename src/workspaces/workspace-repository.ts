// The workspace itself and who may act in it, as the graph reads them: its row, its members, its
// API keys (never a secret) and the MCP clients people connected. Tenant statements on the scope.
import { tenantStatement } from '../db/tenant-sql.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { Plan } from '../db/generated/prisma/enums.js';

export interface WorkspaceShape {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  timezone: string;
  mcpWriteActions: boolean;
}

export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: string;
  joinedAt: Date;
}

export interface ApiKeyRow {
  id: string;
  name: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export interface ConnectedAppRow {
  grantId: string;
  clientId: string;
  clientName: string;
  userEmail: string | null;
  connectedAt: Date | null;
}

// The workspaces table is keyed by the workspace id itself: its binding is `id = $1`.
const CURRENT = tenantStatement<WorkspaceShape>(
  'workspaces.current',
  (workspace) => `SELECT id, slug, name, plan, timezone, mcp_write_actions AS "mcpWriteActions"
    FROM workspaces WHERE ${workspace('workspaces')}`,
);
const MEMBERS = tenantStatement<MemberRow>(
  'workspace.members',
  (workspace) => `SELECT u.id AS "userId", u.email, u.name, m.role::text AS role, m.created_at AS "joinedAt"
    FROM memberships m JOIN users u ON u.id = m.user_id WHERE ${workspace('m')} ORDER BY m.role, u.email`,
);
const API_KEYS = tenantStatement<ApiKeyRow>(
  'workspace.api-keys',
  (workspace) => `SELECT id, name, scopes, expires_at AS "expiresAt", revoked_at AS "revokedAt",
      last_used_at AS "lastUsedAt", created_at AS "createdAt"
    FROM api_keys WHERE ${workspace()} ORDER BY created_at DESC, id DESC`,
);
const CONNECTED_APPS = tenantStatement<ConnectedAppRow>(
  'workspace.connected-apps',
  (workspace) => `SELECT id AS "grantId", client_id AS "clientId", client_name AS "clientName",
      user_email AS "userEmail", created_at AS "connectedAt"
    FROM mcp_grants WHERE ${workspace()} ORDER BY created_at DESC NULLS LAST, id`,
);

export function workspaceRepository(scope: WorkspaceScope) {
  return {
    /** The scope's own workspace (it exists: the scope was made for it). */
    current: async (): Promise<WorkspaceShape> => (await scope.rows(CURRENT))[0]!,
    /** Members by role, then email. */
    members: () => scope.rows(MEMBERS),
    /** API keys, newest first, revoked ones included. */
    apiKeys: () => scope.rows(API_KEYS),
    /** The MCP clients connected to the workspace, newest first. */
    connectedApps: () => scope.rows(CONNECTED_APPS),
  };
}
