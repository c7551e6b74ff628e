// The operator CLI as a function: argv in, exit code out, output on stdout and stderr. The
// executable (index.ts) runs it once per process; tests run it in theirs, which spares a
// process start (TypeScript compiled again, every module loaded again) per command.
import { Command, CommanderError } from 'commander';
import { parseConfig } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { closeDatabase, useConfig } from './context.js';
import { registerClientsCommands } from './commands/clients.js';
import { registerIngestCommands } from './commands/ingest.js';
import { registerKeysCommands } from './commands/keys.js';
import { registerMaintenanceCommands } from './commands/maintenance.js';
import { registerPromptsCommands } from './commands/prompts.js';
import { registerReportsCommands } from './commands/reports.js';
import { registerSeedCommands } from './commands/seed.js';
import { registerSignalsCommands } from './commands/signals.js';
import { registerUsersCommands } from './commands/users.js';
import { registerWebhooksCommands } from './commands/webhooks.js';
import { registerWorkspacesCommands } from './commands/workspaces.js';

/** A fresh program per run: commander keeps the options it parsed on its commands. */
function cliProgram(): Command {
  const program = new Command('signalboard').description('Signalboard operator CLI').exitOverride();
  for (const register of [
    registerWorkspacesCommands,
    registerSeedCommands,
    registerReportsCommands,
    registerClientsCommands,
    registerKeysCommands,
    registerUsersCommands,
    registerIngestCommands,
    registerWebhooksCommands,
    registerSignalsCommands,
    registerPromptsCommands,
    registerMaintenanceCommands,
  ]) {
    register(program);
  }
  return program;
}

/** Runs one command (`argv` as process.argv has it: node, script, arguments); bad input is 2, a failure 1. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let code = 0;
  try {
    useConfig(parseConfig({ LOG_LEVEL: 'silent', ...env }));
    await cliProgram().parseAsync([...argv]);
    code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      code = error.exitCode === 0 ? 0 : 2;
    } else {
      process.stderr.write(`error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
      code = error instanceof UsageError ? 2 : 1;
    }
  } finally {
    // A command reports a partial refusal through exitCode; it belongs to this run only.
    process.exitCode = undefined;
    await closeDatabase();
  }
  return code;
}
