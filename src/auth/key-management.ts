// Creating, listing and revoking API keys. Only owners and admins may create or revoke;
// the secret is returned once and only its hash is stored; every change is audited and
// announced to all instances so that caches drop it at once.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand, inActorsWorkspace, type AdminCommandPolicy } from '../workspaces/index.js';
import { UsageError } from '../errors/index.js';
import type { Notify } from '../workspaces/index.js';
import { generateApiKey, KEY_PREFIX } from './api-key-format.js';
import { underRule } from '../errors/command-input.js';
import { KEY_NAME } from './key-input.js';
import { SCOPES, type Scope } from './scopes.js';

const KEYS: AdminCommandPolicy = { what: 'create or revoke API keys' };

export async function createApiKey(
  prisma: PrismaClient,
  input: {
    workspaceId: string;
    name: string;
    scopes?: Scope[];
    expiresAt?: Date | null;
    actor: Actor;
    formId?: string;
  },
) {
  const name = underRule(KEY_NAME, input.name);
  if (input.expiresAt && Number.isNaN(input.expiresAt.getTime()))
    throw new UsageError('expiry must be an ISO 8601 date-time');
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw new UsageError('expiry must be in the future');
  return adminCommand(prisma, input, KEYS, async ({ tx, actorId, audit }) => {
    const generated = generateApiKey();
    const scopes = input.scopes ?? [...SCOPES];
    const key = await tx.apiKey.create({
      data: {
        id: generated.keyId,
        workspaceId: input.workspaceId,
        name,
        secretHash: new Uint8Array(generated.secretHash),
        scopes,
        expiresAt: input.expiresAt ?? null,
        createdById: actorId === 'operator' ? null : actorId,
      },
    });
    await audit('api_key.created', key.id, { name, scopes });
    return {
      id: key.id,
      name: key.name,
      secret: generated.secret,
      scopes,
      expiresAt: key.expiresAt?.toISOString() ?? null,
    };
  });
}

export async function listApiKeys(prisma: PrismaClient, workspaceId: string) {
  const keys = await prisma.apiKey.findMany({
    where: { workspaceId },
    orderBy: { createdAt: 'desc' },
    select: { id: true, name: true, scopes: true, expiresAt: true, revokedAt: true, lastUsedAt: true, createdAt: true },
  });
  return keys.map((key) => ({ ...key, prefix: `${KEY_PREFIX}${key.id}` }));
}

export async function revokeApiKey(prisma: PrismaClient, notify: Notify, keyId: string, actor: Actor) {
  const key = await prisma.apiKey.findFirst({ where: { id: keyId, ...inActorsWorkspace(actor) } });
  if (!key) throw new UsageError(`no API key ${keyId}`, 'not_found');
  const revoked = await adminCommand(prisma, { workspaceId: key.workspaceId, actor }, KEYS, async ({ tx, audit }) => {
    if (key.revokedAt) return key;
    await audit('api_key.revoked', key.id);
    return tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
  });
  // After the commit, so that no instance reloads the key before it is revoked.
  await notify(keyId);
  return { id: revoked.id, revokedAt: revoked.revokedAt!.toISOString() };
}
