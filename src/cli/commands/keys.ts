import type { Command } from 'commander';
import { createApiKey, listApiKeys, parseScopes, revokeApiKey } from '../../auth/key-management.js';
import { findWorkspace } from '../../workspaces/service.js';
import { UsageError } from '../../errors/index.js';
import { db, notify, output, actorOf, AS_OPTION, type JsonOption } from '../context.js';

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
        const { prisma } = await db();
        const workspace = await findWorkspace(prisma, options.workspace);
        const expiresAt = options.expiresAt ? new Date(options.expiresAt) : null;
        if (options.expiresAt && (Number.isNaN(expiresAt!.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(options.expiresAt)))
          throw new UsageError('--expires-at must be an ISO 8601 date-time');
        const key = await createApiKey(prisma, {
          workspaceId: workspace.id,
          name: options.name,
          scopes: parseScopes(options.scopes),
          expiresAt,
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
