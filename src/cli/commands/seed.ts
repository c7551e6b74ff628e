import type { Command } from 'commander';
import { findWorkspace } from '../../workspaces/service.js';
import { UsageError } from '../../errors/index.js';
import { seedWorkspace } from '../../demo/seed.js';
import { progressBar } from '../progress.js';
import { db, output, type JsonOption } from '../context.js';

export function registerSeedCommands(program: Command) {
  program
    .command('seed')
    .description('fill a workspace with demo clients, reports, facts and AI-visibility scans')
    .requiredOption('--workspace <slug>')
    .option('--days <n>', 'days of provider facts', '430')
    .option('--clients <n>', 'number of clients', '6')
    .option('--json')
    .action(async (options: { workspace: string; days: string; clients: string } & JsonOption) => {
      const days = Number(options.days);
      const clients = Number(options.clients);
      if (!Number.isInteger(days) || days < 1 || days > 3650)
        throw new UsageError('--days must be a whole number from 1 to 3650');
      if (!Number.isInteger(clients) || clients < 1 || clients > 1000)
        throw new UsageError('--clients must be a whole number from 1 to 1000');
      const { prisma, pool } = await db();
      const workspace = await findWorkspace(prisma, options.workspace);
      const bar = progressBar('seeding');
      const summary = await seedWorkspace(prisma, pool, {
        workspaceId: workspace.id,
        days,
        clients,
        onProgress: bar.update,
      });
      bar.finish();
      output(
        options,
        summary,
        `Seeded ${workspace.slug}: ${summary.clients} clients, ${summary.reports} reports, ` +
          `${summary.facts} facts, ${summary.scans} scans.`,
      );
    });
}
