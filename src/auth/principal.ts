import type { Plan } from '../db/generated/prisma/enums.js';

export const SCOPES = ['clients:read', 'reports:read', 'ai_visibility:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const API_PLANS: readonly Plan[] = ['pro', 'agency', 'scale'];

/** Who is calling, after authentication: one workspace, its plan, and what the credential may read. */
export interface Principal {
  kind: 'api_key';
  credentialId: string;
  workspaceId: string;
  plan: Plan;
  timezone: string;
  scopes: readonly Scope[];
}
