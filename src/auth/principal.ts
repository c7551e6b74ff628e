import type { Plan, Role } from '../db/generated/prisma/enums.js';
import type { Scope } from './scopes.js';

export type { Scope } from './scopes.js';

interface PrincipalBase {
  /** The API key's id or the session's id: the rate-limit bucket. */
  credentialId: string;
  workspaceId: string;
  plan: Plan;
  timezone: string;
  scopes: readonly Scope[];
}

/** Who is calling, after authentication: one workspace, its plan, and what the credential may read. */
export type Principal =
  | (PrincipalBase & { kind: 'api_key' })
  | (PrincipalBase & { kind: 'session'; userId: string; email: string; role: Role })
  /** An MCP client acting for a person in one workspace, with the OAuth grant they consented to. */
  | (PrincipalBase & {
      kind: 'oauth';
      userId: string;
      email: string;
      role: Role;
      clientId: string;
      clientName: string;
    });
