import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import { newId } from '../db/ids.js';
import { isTimeZone } from '../dates/civil-date.js';
import { adminCommand } from './admin-command.js';
import { OPERATOR } from './actor.js';
import { UsageError } from '../errors/index.js';
import { PLANS } from './plans.js';

export type Notify = (target: string) => Promise<void>;

export async function createWorkspace(
  prisma: PrismaClient,
  input: { slug: string; plan: string; name?: string; timezone?: string },
) {
  if (!/^[a-z0-9][a-z0-9-]{1,39}$/.test(input.slug))
    throw new UsageError('slug must be 2-40 characters of a-z, 0-9 and -, starting with a letter or digit');
  if (!PLANS.includes(input.plan as Plan)) throw new UsageError(`plan must be one of ${PLANS.join(', ')}`);
  const timezone = input.timezone ?? 'UTC';
  if (!isTimeZone(timezone)) throw new UsageError(`"${timezone}" is not an IANA time zone`);
  if (await prisma.workspace.findUnique({ where: { slug: input.slug } }))
    throw new UsageError(`workspace "${input.slug}" already exists`, 'conflict');
  return prisma.workspace.create({
    data: {
      id: newId('workspace'),
      slug: input.slug,
      name: input.name ?? input.slug,
      plan: input.plan as Plan,
      timezone,
    },
  });
}

export async function findWorkspace(prisma: PrismaClient, slug: string) {
  const workspace = await prisma.workspace.findUnique({ where: { slug } });
  if (!workspace) throw new UsageError(`no workspace "${slug}"`, 'not_found');
  return workspace;
}

export async function setPlan(prisma: PrismaClient, notify: Notify, slug: string, plan: string) {
  if (!PLANS.includes(plan as Plan)) throw new UsageError(`plan must be one of ${PLANS.join(', ')}`);
  const workspace = await findWorkspace(prisma, slug);
  const updated = await adminCommand(
    prisma,
    { workspaceId: workspace.id, actor: OPERATOR },
    { what: 'change plans' },
    async ({ tx, audit }) => {
      await audit('workspace.plan_changed', workspace.id, { from: workspace.plan, to: plan });
      return tx.workspace.update({ where: { id: workspace.id }, data: { plan: plan as Plan } });
    },
  );
  // Cached keys carry the plan: every instance must re-read them.
  await notify(`*:${workspace.id}`);
  return updated;
}
