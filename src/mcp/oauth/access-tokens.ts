// Verifying the MCP connector's access tokens: one statement on the provider's own rows (opaque
// tokens are stored under the hash of their value; revocation deletes them) together with the
// person's membership, plan and write switch. Verified tokens are kept like API keys: 30 s at
// most, dropped on every instance the moment a token or grant is revoked, a plan changes, or
// the invalidation channel reconnects.
import { LRUCache } from 'lru-cache';
import type { Plan, Role } from '../../db/generated/prisma/enums.js';
import { runStatement, sqlStatement, type SqlRunner } from '../../db/sql-runner.js';
import { storedIdOf } from './oauth-adapter.js';
import { parseAccountId } from './oauth-accounts.js';
import { OAUTH_INVALIDATION_TARGET } from '../connector.js';
import { invalidationCounter } from '../../auth/index.js';

export interface TokenHolder {
  userId: string;
  workspaceId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  role: Role;
  plan: Plan;
  timezone: string;
  email: string;
  writeActions: boolean;
}

const TOKEN_CACHE_TTL_MS = 30_000;

interface TokenRow {
  payload: { aud?: string | string[]; accountId?: string; clientId?: string; scope?: string; exp?: number };
  client_name: string | null;
  role: Role;
  plan: Plan;
  timezone: string;
  mcp_write_actions: boolean;
  email: string;
}

const TOKEN_HOLDER = sqlStatement<TokenRow, { storedId: string }>(
  'mcp.access-token-holder',
  (param) => `SELECT t.payload, c.payload->>'client_name' AS client_name, m.role, w.plan, w.timezone,
           w.mcp_write_actions, u.email
         FROM oauth_models t
         JOIN memberships m ON m.user_id = split_part(t.payload->>'accountId', '.', 1)
           AND m.workspace_id = split_part(t.payload->>'accountId', '.', 2)
         JOIN workspaces w ON w.id = m.workspace_id
         JOIN users u ON u.id = m.user_id
         LEFT JOIN oauth_models c ON c.model = 'Client' AND c.id = t.payload->>'clientId'
         WHERE t.model = 'AccessToken' AND t.id = ${param('storedId')}
           AND (t.expires_at IS NULL OR t.expires_at > now())`,
);

export function createAccessTokenVerifier(pool: SqlRunner, resource: () => string) {
  const verified = new LRUCache<string, TokenHolder>({
    max: 10_000,
    ttl: TOKEN_CACHE_TTL_MS,
  });
  const invalidation = invalidationCounter();
  const clear = () => {
    invalidation.invalidated();
    verified.clear();
  };
  return {
    /**
     * The holder of an access token for the MCP resource, or null (unknown, expired, revoked, another
     * audience, no longer a member).
     */
    async verify(token: string): Promise<TokenHolder | null> {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      const cached = verified.get(token);
      if (cached) return cached;
      const current = invalidation.begin();
      const row = (await runStatement(pool, TOKEN_HOLDER, { storedId: storedIdOf('AccessToken', token) })).rows[0];
      if (!row || (row.payload.exp !== undefined && row.payload.exp * 1000 <= Date.now())) return null;
      const audience = row.payload.aud;
      if (audience !== resource() && !(Array.isArray(audience) && audience.includes(resource()))) return null;
      const account = parseAccountId(row.payload.accountId ?? '');
      const clientId = row.payload.clientId;
      if (!account || !clientId) return null;
      const holder = {
        ...account,
        clientId,
        clientName: row.client_name ?? clientId,
        scopes: (row.payload.scope ?? '').split(' ').filter(Boolean),
        role: row.role,
        plan: row.plan,
        timezone: row.timezone,
        writeActions: row.mcp_write_actions,
        email: row.email,
      };
      // Kept no longer than the token lives (at least 1 ms: a ttl of 0 would mean forever).
      const lifetimeMs = row.payload.exp ? row.payload.exp * 1000 - Date.now() : TOKEN_CACHE_TTL_MS;
      if (current()) verified.set(token, holder, { ttl: Math.max(1, Math.min(TOKEN_CACHE_TTL_MS, lifetimeMs)) });
      return holder;
    },
    clear,
    /**
     * An invalidation message (local or from another instance): OAuth revocations, plan and workspace
     * changes drop the cache.
     */
    invalidate(target: string) {
      if (target === OAUTH_INVALIDATION_TARGET || target.startsWith('*')) clear();
    },
  };
}
