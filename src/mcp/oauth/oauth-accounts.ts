// The MCP connector's OAuth accounts: a grant's account is one membership — a person in one
// workspace — and its one scope.
import type { Plan } from '../../db/generated/prisma/enums.js';

export const MCP_SCOPE = 'mcp';
/** Paid plans: the connector is not available on `free`. */
export const MCP_PLANS: readonly Plan[] = ['starter', 'pro', 'agency', 'scale'];
/** Whether a workspace's plan includes the connector: every plan check of mcp/ asks this. */
export const planIncludesMcp = (plan: Plan) => MCP_PLANS.includes(plan);

/** The account of a grant is one membership: a person in one workspace. */
export const accountIdOf = (userId: string, workspaceId: string) => `${userId}.${workspaceId}`;
export function parseAccountId(accountId: string): { userId: string; workspaceId: string } | null {
  const [userId, workspaceId, ...rest] = accountId.split('.');
  return userId && workspaceId && !rest.length ? { userId, workspaceId } : null;
}

/** The scopes a consent grants when asked: openid (oidc-provider's own), mcp, offline_access. */
export const GRANTABLE_SCOPES: readonly string[] = ['openid', MCP_SCOPE, 'offline_access'];
