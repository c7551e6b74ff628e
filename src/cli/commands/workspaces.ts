import type { Command } from 'commander';
import { createWorkspace, findWorkspace, setPlan } from '../../workspaces/service.js';
import { UsageError } from '../../errors/index.js';
import { setRequireSso } from '../../sso/connections.js';
import { db, notify, output, actorOf, AS_OPTION, type JsonOption } from '../context.js';

export function registerWorkspacesCommands(program: Command) {
  const workspaces = program.command('workspaces').description('Create workspaces and change plans');
  workspaces
    .command('create <slug>')
    .requiredOption('--plan <plan>', 'free, starter, pro, agency or scale')
    .option('--name <name>')
    .option('--timezone <tz>', 'IANA time zone', 'UTC')
    .option('--json')
    .action(async (slug: string, options: { plan: string; name?: string; timezone: string } & JsonOption) => {
      const { prisma } = await db();
      const workspace = await createWorkspace(prisma, {
        slug,
        plan: options.plan,
        timezone: options.timezone,
        ...(options.name ? { name: options.name } : {}),
      });
      output(options, workspace, `Created workspace ${workspace.slug} (${workspace.id}) on ${workspace.plan}.`);
    });
  workspaces
    .command('set-plan <slug> <plan>')
    .option('--json')
    .action(async (slug: string, plan: string, options: JsonOption) => {
      const updated = await setPlan((await db()).prisma, notify, slug, plan);
      output(
        options,
        { slug: updated.slug, plan: updated.plan },
        `Workspace ${updated.slug} is now on ${updated.plan}.`,
      );
    });

  workspaces
    .command('require-sso <slug> <state>')
    .description('on: members whose address is in a verified domain must sign in with SSO (owners keep their password)')
    .option(...AS_OPTION)
    .option('--json')
    .action(async (slug: string, state: string, options: { as?: string } & JsonOption) => {
      if (state !== 'on' && state !== 'off') throw new UsageError('the state is on or off');
      const { prisma } = await db();
      const workspace = await findWorkspace(prisma, slug);
      const result = await setRequireSso(prisma, {
        workspaceId: workspace.id,
        enabled: state === 'on',
        actor: actorOf(options),
      });
      output(
        options,
        { slug, ...result },
        `Single sign-on is ${result.requireSso ? 'required' : 'optional'} in ${slug}.`,
      );
    });
}
