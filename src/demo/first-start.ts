// On the first start of an empty database: the demo workspace, its owner (with a random
// password), demo data and one API key; the password and the key's secret are shown this once.
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { createApiKey } from '../auth/index.js';
import { createWorkspace } from '../workspaces/index.js';
import { seedWorkspace } from './seed.js';
import { hashPassword } from '../sessions/index.js';
import { generatePassword } from '../workspaces/index.js';

export const DEMO_SLUG = 'demo';
export const DEMO_OWNER_EMAIL = 'owner@demo.signalboard.example';

export async function seedDemoIfEmpty(
  prisma: PrismaClient,
  pool: pg.Pool,
): Promise<{ secret: string; ownerPassword: string; summary: Awaited<ReturnType<typeof seedWorkspace>> } | null> {
  if ((await prisma.workspace.count()) > 0) return null;
  const workspace = await createWorkspace(prisma, {
    slug: DEMO_SLUG,
    plan: 'agency',
    name: 'Demo Agency',
    timezone: 'Europe/Berlin',
  });
  const ownerPassword = generatePassword();
  const owner = await prisma.user.create({
    data: {
      id: newId('user'),
      email: DEMO_OWNER_EMAIL,
      name: 'Demo Owner',
      passwordHash: await hashPassword(ownerPassword),
    },
  });
  await prisma.membership.create({
    data: { id: newId('membership'), workspaceId: workspace.id, userId: owner.id, role: 'owner' },
  });
  const summary = await seedWorkspace(prisma, pool, { workspaceId: workspace.id, reportTimeZones: 'market' });
  const key = await createApiKey(prisma, {
    workspaceId: workspace.id,
    name: 'Demo key',
    actor: { email: DEMO_OWNER_EMAIL },
  });
  return { secret: key.secret, ownerPassword, summary };
}
