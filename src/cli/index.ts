// Operator CLI: `npm run cli -- <command>`. Every command has --json; bad input exits
// non-zero with a one-line error. One file per command group under commands/.
import '../config/node-version.js';
import { Command, CommanderError } from 'commander';
import { parseConfig } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { closeDatabase, useConfig } from './context.js';
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

const program = new Command('signalboard').description('Signalboard operator CLI').exitOverride();
for (const register of [
  registerWorkspacesCommands,
  registerSeedCommands,
  registerReportsCommands,
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

async function run(): Promise<number> {
  let code = 0;
  try {
    useConfig(parseConfig({ LOG_LEVEL: 'silent', ...process.env }));
    await program.parseAsync(process.argv);
    code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      code = error.exitCode === 0 ? 0 : 2;
    } else {
      process.stderr.write(`error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
      code = error instanceof UsageError ? 2 : 1;
    }
  } finally {
    await closeDatabase();
  }
  return code;
}

// An explicit exit: a library's exit hook must not turn a failure into status 0.
void run().then((code) => process.exit(code));
