// Authenticating API keys. Lookups are cached (lru-cache, short TTL) so the hot path does
// no query; a revocation, plan change or key change publishes the key id on a channel
// (PostgreSQL NOTIFY, or Redis when configured) and every instance drops its entry, so
// the very next request re-reads the key and fails.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import { ApiError } from '../errors/index.js';
import { bearerToken, parseApiKey, secretMatches } from './api-key-format.js';
import { API_PLANS, SCOPES, type Principal, type Scope } from './principal.js';

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
  authenticate(authorization: string | null, now: Date, requiredPlans?: readonly Plan[]): Promise<Principal>;
  /** Drops cached state: one key id, every key of a workspace ('*:<workspaceId>'), or everything ('*'). */
  invalidate(keyIdOrWorkspace: string): void;
}

const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export function createApiKeyAuthenticator(prisma: PrismaClient, options: { cacheTtlMs?: number } = {}): ApiKeyAuthenticator {
  const cache = new LRUCache<string, KeyRecord | 'missing'>({ max: 10_000, ttl: options.cacheTtlMs ?? 30_000 });
  const lastUsedWrites = new LRUCache<string, number>({ max: 10_000 });

  async function load(keyId: string): Promise<KeyRecord | null> {
    const cached = cache.get(keyId);
    if (cached) return cached === 'missing' ? null : cached;
    const row = await prisma.apiKey.findUnique({
      where: { id: keyId },
      select: { id: true, workspaceId: true, secretHash: true, scopes: true, expiresAt: true, revokedAt: true, workspace: { select: { plan: true, timezone: true } } },
    });
    const record: KeyRecord | null = row
      ? {
          id: row.id,
          workspaceId: row.workspaceId,
          secretHash: row.secretHash,
          scopes: row.scopes.filter((scope): scope is Scope => (SCOPES as readonly string[]).includes(scope)),
          expiresAt: row.expiresAt,
          revokedAt: row.revokedAt,
          plan: row.workspace.plan,
          timezone: row.workspace.timezone,
        }
      : null;
    cache.set(keyId, record ?? 'missing');
    return record;
  }

  function touch(keyId: string, now: Date) {
    // lastUsedAt is advisory: at most one write per key per minute, never awaited.
    const last = lastUsedWrites.get(keyId) ?? 0;
    if (now.getTime() - last < LAST_USED_WRITE_INTERVAL_MS) return;
    lastUsedWrites.set(keyId, now.getTime());
    prisma.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: now } }).catch(() => lastUsedWrites.delete(keyId));
  }

  return {
    async authenticate(authorization, now, requiredPlans = API_PLANS) {
      const token = bearerToken(authorization);
      if (!token) {
        throw new ApiError('unauthenticated', authorization ? 'The Authorization header must be "Bearer <API key>".' : 'Send an API key as "Authorization: Bearer <API key>".');
      }
      const parsed = parseApiKey(token);
      if (!parsed) throw new ApiError('unauthenticated', 'The API key is malformed.');
      const record = await load(parsed.keyId);
      if (!record || !secretMatches(parsed.secretPart, record.secretHash)) throw new ApiError('unauthenticated', 'The API key is not valid.');
      if (record.revokedAt) throw new ApiError('api_key_revoked', 'This API key has been revoked.');
      if (record.expiresAt && record.expiresAt.getTime() <= now.getTime()) {
        throw new ApiError('api_key_expired', `This API key expired at ${record.expiresAt.toISOString()}.`);
      }
      if (!requiredPlans.includes(record.plan)) {
        throw new ApiError('plan_required', `The API needs the ${requiredPlans.join(', ')} plan; this workspace is on ${record.plan}.`);
      }
      touch(record.id, now);
      return { kind: 'api_key', credentialId: record.id, workspaceId: record.workspaceId, plan: record.plan, timezone: record.timezone, scopes: record.scopes };
    },
    invalidate(target) {
      if (target === '*') cache.clear();
      else if (target.startsWith('*:')) {
        const workspaceId = target.slice(2);
        for (const [keyId, record] of cache.entries()) if (record !== 'missing' && record.workspaceId === workspaceId) cache.delete(keyId);
      } else {
        cache.delete(target);
      }
    },
  };
}
