import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { findWorkspace } from '../../workspaces/service.js';
import { UsageError } from '../../errors/index.js';
import { createReport } from '../../reports/report-management.js';
import { CREATE_REPORT_INPUT, reportToCreate } from '../../reports/report-input.js';
import { cliInput, db, output, type JsonOption } from '../context.js';

export function registerReportsCommands(program: Command) {
  program
    .command('reports')
    .description('Manage reports')
    .command('create')
    .requiredOption('--workspace <slug>')
    .requiredOption('--file <definition.json>')
    .option('--client <id>')
    .option('--name <name>', 'report name', 'Untitled report')
    .option('--json')
    .action(async (options: { workspace: string; file: string; client?: string; name: string } & JsonOption) => {
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(options.file, 'utf8'));
      } catch (error) {
        throw new UsageError(`cannot read ${options.file}: ${(error as Error).message}`);
      }
      const input = cliInput(CREATE_REPORT_INPUT, { name: options.name, clientId: options.client, definition: raw });
      const { prisma } = await db();
      const workspace = await findWorkspace(prisma, options.workspace);
      const report = await createReport(prisma, {
        ...reportToCreate(input),
        workspaceId: workspace.id,
        actor: { email: null },
      });
      output(options, { id: report.id, name: report.name, clientId: report.clientId }, `Created report ${report.id}.`);
    });
}
