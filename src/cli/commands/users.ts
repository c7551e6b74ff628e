import type { Command } from 'commander';
import { findWorkspace } from '../../workspaces/service.js';
import { addMember, generatePassword } from '../../workspaces/members.js';
import { issueResetLink, reservePasswordReset, resetMail, resetUrl } from '../../sessions/password-reset.js';
import { createMailer } from '../../mail/mailer.js';
import { createLogger } from '../../config/logger.js';
import { db, config, output, type JsonOption } from '../context.js';

/** The link points at origin (PORT without PUBLIC_BASE_URL): say so when no server answers there. */
async function warnWithoutServer(origin: string) {
  const answers = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
    (response) => response.ok,
    () => false,
  );
  if (!answers)
    process.stderr.write(
      `warning: no server answers on ${origin} (PORT=${new URL(origin).port}); the link points there. ` +
        "Run the CLI with the server's PORT, or set PUBLIC_BASE_URL.\n",
    );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export function registerUsersCommands(program: Command) {
  const users = program.command('users').description('People who sign in to the web app');
  registerResetPassword(users);
  registerCreateUser(users);
}

/** A reset link for a person: mailed, or printed for the operator without a mail server. */
function registerResetPassword(users: Command) {
  users
    .command('reset-password')
    .description('mails the person a single-use reset link; without SMTP_URL it prints the link for you to pass on')
    .requiredOption('--email <email>')
    .option('--json')
    .action(async (options: { email: string } & JsonOption) => {
      const { pool } = await db();
      const { PUBLIC_BASE_URL, PORT, SMTP_URL } = config();
      const origin = PUBLIC_BASE_URL ? new URL(PUBLIC_BASE_URL).origin : `http://localhost:${PORT}`;
      if (!PUBLIC_BASE_URL) await warnWithoutServer(origin);
      const request = { email: options.email, address: 'cli' };
      const link = (await reservePasswordReset(pool, request)) ? await issueResetLink(pool, request) : null;
      if (!link) {
        output(
          options,
          { email: options.email, requested: true, sent: false, link: null },
          `No link made: no account has ${options.email}, or it reached the hourly limit of reset links.`,
        );
        return;
      }
      // The operator runs this with the database's keys in hand: without a mail server the link is theirs to pass on.
      if (!SMTP_URL) {
        const url = resetUrl(origin, link);
        output(
          options,
          { email: link.to, requested: true, sent: false, link: url },
          `SMTP_URL is not set, so no mail was sent. Pass this link to ${link.to} (valid 30 minutes, once):\n${url}`,
        );
        return;
      }
      await createMailer(config(), createLogger(config()))(resetMail(origin, link));
      output(
        options,
        { email: link.to, requested: true, sent: true, link: null },
        `A reset link was mailed to ${link.to} (valid 30 minutes, once).`,
      );
    });
}

/** A person added to a workspace, with a new account when they have none. */
function registerCreateUser(users: Command) {
  users
    .command('create')
    .requiredOption('--email <email>')
    .requiredOption('--name <name>')
    .requiredOption('--workspace <slug>')
    .requiredOption('--role <role>', 'owner, admin or member')
    .option('--password-stdin', 'read the password from standard input (otherwise one is generated and shown once)')
    .option('--json')
    .action(
      async (
        options: { email: string; name: string; workspace: string; role: string; passwordStdin?: boolean } & JsonOption,
      ) => {
        const password = options.passwordStdin ? await readStdin() : generatePassword();
        const { prisma } = await db();
        const workspace = await findWorkspace(prisma, options.workspace);
        const member = await addMember(prisma, {
          workspaceId: workspace.id,
          email: options.email,
          name: options.name,
          role: options.role,
          password,
        });
        // A password is shown only when it is the new account's: an existing person keeps their own.
        const shown = options.passwordStdin || member.existingAccount ? {} : { password };
        const told = member.existingAccount
          ? ' An existing account: its password is unchanged.'
          : options.passwordStdin
            ? ''
            : ` Password (shown once): ${password}`;
        output(
          options,
          { ...member, ...shown },
          `Added ${member.email} to ${workspace.slug} as ${member.role}.${told}`,
        );
      },
    );
}
