// The MCP connector's OAuth accounts: a grant's account is one membership — a person in one
// workspace — and its one scope.
import type { Plan } from '../../db/generated/prisma/enums.js';
import { planHas, plansWith } from '../../workspaces/index.js';

export const MCP_SCOPE = 'mcp';
/** The plans with the connector, from the one table of plan features. */
export const MCP_PLANS: readonly Plan[] = plansWith('mcp');
/** Whether a workspace's plan includes the connector: every plan check of mcp/ asks this. */
export const planIncludesMcp = (plan: Plan) => planHas(plan, 'mcp');

/** The account of a grant is one membership: a person in one workspace. */
export const accountIdOf = (userId: string, workspaceId: string) => `${userId}.${workspaceId}`;
export function parseAccountId(accountId: string): { userId: string; workspaceId: string } | null {
  const [userId, workspaceId, ...rest] = accountId.split('.');
  return userId && workspaceId && !rest.length ? { userId, workspaceId } : null;
}

/** The scopes a consent grants when asked: openid (oidc-provider's own), mcp, offline_access. */
export const GRANTABLE_SCOPES: readonly string[] = ['openid', MCP_SCOPE, 'offline_access'];
