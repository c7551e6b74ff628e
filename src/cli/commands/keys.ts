import type { Command } from 'commander';
import { createApiKey, listApiKeys, revokeApiKey } from '../../auth/key-management.js';
import { CREATE_KEY_INPUT, keyToCreate } from '../../auth/key-input.js';
import { findWorkspace } from '../../workspaces/service.js';
import { cliInput, db, notify, output, actorOf, AS_OPTION, type JsonOption } from '../context.js';

export function registerKeysCommands(program: Command) {
  const keys = program.command('keys').description('API keys');
  keys
    .command('create')
    .requiredOption('--workspace <slug>')
    .requiredOption('--name <name>')
    .option('--scopes <list>', 'comma-separated: clients:read,reports:read,ai_visibility:read (default: all)')
    .option('--expires-at <iso>', 'ISO 8601 date-time after which the key stops working')
    .option(...AS_OPTION)
    .option('--json')
    .action(
      async (
        options: { workspace: string; name: string; scopes?: string; expiresAt?: string; as?: string } & JsonOption,
      ) => {
        const input = cliInput(CREATE_KEY_INPUT, {
          name: options.name,
          scopes: options.scopes
            ?.split(',')
            .map((scope) => scope.trim())
            .filter(Boolean),
          expiresAt: options.expiresAt,
        });
        const { prisma } = await db();
        const workspace = await findWorkspace(prisma, options.workspace);
        const key = await createApiKey(prisma, {
          ...keyToCreate(input),
          workspaceId: workspace.id,
          actor: actorOf(options),
        });
        output(
          options,
          key,
          `Created API key ${key.id} (${key.scopes.join(', ')}). The secret is shown only now:\n${key.secret}`,
        );
      },
    );
  keys
    .command('list')
    .requiredOption('--workspace <slug>')
    .option('--json')
    .action(async (options: { workspace: string } & JsonOption) => {
      const { prisma } = await db();
      const list = await listApiKeys(prisma, (await findWorkspace(prisma, options.workspace)).id);
      const state = (key: (typeof list)[number]) =>
        key.revokedAt ? 'revoked' : key.expiresAt && key.expiresAt < new Date() ? 'expired' : 'active';
      output(
        options,
        list,
        list.map((key) => `${key.id}  ${state(key).padEnd(7)}  ${key.name}  [${key.scopes.join(', ')}]`).join('\n') ||
          'No keys.',
      );
    });
  keys
    .command('revoke <keyId>')
    .option(...AS_OPTION)
    .option('--json')
    .action(async (keyId: string, options: { as?: string } & JsonOption) => {
      const revoked = await revokeApiKey((await db()).prisma, notify, keyId, actorOf(options));
      output(options, revoked, `Revoked ${revoked.id}.`);
    });
}
