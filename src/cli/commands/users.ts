import type { Command } from 'commander';
import { findWorkspace } from '../../workspaces/service.js';
import { addMember, generatePassword } from '../../workspaces/members.js';
import { issuePasswordReset, resetMail } from '../../sessions/password-reset.js';
import { createMailer } from '../../mail/mailer.js';
import { createLogger } from '../../config/logger.js';
import { db, config, output, type JsonOption } from '../context.js';

export function registerUsersCommands(program: Command) {
  async function readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  }

  const users = program.command('users').description('People who sign in to the web app');
  users
    .command('reset-password')
    .description('sends the person a single-use reset link (logged instead when SMTP_URL is unset outside production)')
    .requiredOption('--email <email>')
    .option('--json')
    .action(async (options: { email: string } & JsonOption) => {
      const { pool } = await db();
      const { PUBLIC_BASE_URL, PORT } = config();
      const origin = PUBLIC_BASE_URL ? new URL(PUBLIC_BASE_URL).origin : `http://localhost:${PORT}`;
      const link = await issuePasswordReset(pool, { email: options.email, address: 'cli' });
      if (link) await createMailer(config(), createLogger(config()))(resetMail(origin, link));
      output(options, { email: options.email, requested: true }, `If ${options.email} has an account, a reset link is on its way (valid 30 minutes, once).`);
    });
  users
    .command('create')
    .requiredOption('--email <email>')
    .requiredOption('--name <name>')
    .requiredOption('--workspace <slug>')
    .requiredOption('--role <role>', 'owner, admin or member')
    .option('--password-stdin', 'read the password from standard input (otherwise one is generated and shown once)')
    .option('--json')
    .action(async (options: { email: string; name: string; workspace: string; role: string; passwordStdin?: boolean } & JsonOption) => {
      const password = options.passwordStdin ? await readStdin() : generatePassword();
      const { prisma } = await db();
      const workspace = await findWorkspace(prisma, options.workspace);
      const member = await addMember(prisma, { workspaceId: workspace.id, email: options.email, name: options.name, role: options.role, password });
      const shown = options.passwordStdin ? {} : { password };
      output(options, { ...member, ...shown }, `Added ${member.email} to ${workspace.slug} as ${member.role}.${options.passwordStdin ? '' : ` Password (shown once): ${password}`}`);
    });

}
