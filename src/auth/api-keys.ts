// Authenticating API keys. Lookups are cached (lru-cache, short TTL) so the hot path does
// no query; a revocation, plan change or key change publishes the key id on a channel
// (PostgreSQL NOTIFY, or Redis when configured) and every instance drops its entry, so
// the very next request re-reads the key and fails.
import { LRUCache } from 'lru-cache';
import { runStatement, sqlStatement, type SqlRunner } from '../db/sql-runner.js';
import { invalidationCounter } from './invalidation.js';
import { singleFlight } from '../http/single-flight.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import { ApiError } from '../errors/index.js';
import { bearerChallenge, bearerToken, parseApiKey, secretMatches } from './api-key-format.js';
import type { Principal } from './principal.js';
import { SCOPES, type Scope } from './scopes.js';
import { planHas, planRefusal } from '../workspaces/index.js';

export interface KeyRecord {
  id: string;
  workspaceId: string;
  secretHash: Uint8Array;
  scopes: Scope[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  plan: Plan;
  timezone: string;
}

export interface ApiKeyAuthenticator {
  authenticate(authorization: string | null, now: Date): Promise<Principal>;
  /** Drops cached state: one key id, every key of a workspace ('*:<workspaceId>'), or everything ('*'). */
  invalidate(keyIdOrWorkspace: string): void;
}

const LAST_USED_WRITE_INTERVAL_MS = 60_000;

interface KeyRow {
  id: string;
  workspace_id: string;
  secret_hash: Uint8Array;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  plan: Plan;
  timezone: string;
}

/**
 * The key and its workspace's plan and zone, by primary key. Plain SQL rather than Prisma, whose
 * first query loads a query compiler an instance serving only the API never needs otherwise
 * (docs/decisions/api-key-lookup-without-prisma.md).
 */
const KEY_LOOKUP = sqlStatement<KeyRow, { keyId: string }>(
  'auth.api-key-lookup',
  (param) => `SELECT k.id, k.workspace_id, k.secret_hash, k.scopes, k.expires_at, k.revoked_at, w.plan, w.timezone
  FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.id = ${param('keyId')}`,
);

const TOUCH_KEY = sqlStatement<never, { keyId: string; now: Date }>(
  'auth.api-key-touch',
  (param) => `UPDATE api_keys SET last_used_at = ${param('now')} WHERE id = ${param('keyId')}`,
);

const recordOf = (row: KeyRow): KeyRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  secretHash: row.secret_hash,
  scopes: row.scopes.filter((scope): scope is Scope => (SCOPES as readonly string[]).includes(scope)),
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  plan: row.plan,
  timezone: row.timezone,
});

/** A key that matched: refused when revoked, expired at `now`, or on a plan without the API. */
function assertUsable(record: KeyRecord, now: Date) {
  const refusedToken = { headers: bearerChallenge('invalid_token') };
  if (record.revokedAt) throw new ApiError('api_key_revoked', 'This API key has been revoked.', refusedToken);
  if (record.expiresAt && record.expiresAt.getTime() <= now.getTime()) {
    const message = `This API key expired at ${record.expiresAt.toISOString()}.`;
    throw new ApiError('api_key_expired', message, refusedToken);
  }
  if (!planHas(record.plan, 'api')) throw new ApiError('plan_required', `${planRefusal('api', record.plan)}.`);
}

export function createApiKeyAuthenticator(sql: SqlRunner, options: { cacheTtlMs?: number } = {}): ApiKeyAuthenticator {
  const cache = new LRUCache<string, KeyRecord | 'missing'>({ max: 10_000, ttl: options.cacheTtlMs ?? 30_000 });
  const lastUsedWrites = new LRUCache<string, number>({ max: 10_000 });

  // Lookups in flight, so that a burst on a key not cached yet sends one query. A lookup that began
  // before an invalidation is neither kept nor shared with the requests that arrive after it.
  const loading = singleFlight<string, KeyRecord | null>();
  const invalidation = invalidationCounter();

  async function lookup(keyId: string): Promise<KeyRecord | null> {
    const current = invalidation.begin();
    const row = (await runStatement(sql, KEY_LOOKUP, { keyId })).rows[0];
    const record = row ? recordOf(row) : null;
    if (current()) cache.set(keyId, record ?? 'missing');
    return record;
  }

  function load(keyId: string): Promise<KeyRecord | null> {
    const cached = cache.get(keyId);
    if (cached) return Promise.resolve(cached === 'missing' ? null : cached);
    return loading.run(keyId, () => lookup(keyId));
  }

  function touch(keyId: string, now: Date) {
    // lastUsedAt is advisory: at most one write per key per minute, never awaited.
    const last = lastUsedWrites.get(keyId) ?? 0;
    if (now.getTime() - last < LAST_USED_WRITE_INTERVAL_MS) return;
    lastUsedWrites.set(keyId, now.getTime());
    runStatement(sql, TOUCH_KEY, { keyId, now }).catch(() => lastUsedWrites.delete(keyId));
  }

  return {
    async authenticate(authorization, now) {
      const token = bearerToken(authorization);
      if (!token) {
        const message = authorization
          ? 'The Authorization header must be "Bearer <API key>".'
          : 'Send an API key as "Authorization: Bearer <API key>".';
        throw new ApiError('unauthenticated', message, {
          headers: bearerChallenge(authorization ? 'invalid_request' : undefined),
        });
      }
      const refusedToken = { headers: bearerChallenge('invalid_token') };
      const parsed = parseApiKey(token);
      if (!parsed) throw new ApiError('unauthenticated', 'The API key is malformed.', refusedToken);
      const record = await load(parsed.keyId);
      if (!record || !secretMatches(parsed.secretPart, record.secretHash))
        throw new ApiError('unauthenticated', 'The API key is not valid.', refusedToken);
      assertUsable(record, now);
      touch(record.id, now);
      return {
        kind: 'api_key',
        credentialId: record.id,
        workspaceId: record.workspaceId,
        plan: record.plan,
        timezone: record.timezone,
        scopes: record.scopes,
      };
    },
    invalidate(target) {
      invalidation.invalidated();
      loading.forget();
      if (target === '*') cache.clear();
      else if (target.startsWith('*:')) {
        const workspaceId = target.slice(2);
        for (const [keyId, record] of cache.entries())
          if (record !== 'missing' && record.workspaceId === workspaceId) cache.delete(keyId);
      } else {
        cache.delete(target);
      }
    },
  };
}
