// People in workspaces: creating a user (or adding an existing one) with a role and, when
// given, a password (argon2id). Changes are audited.
import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Role } from '../db/generated/prisma/enums.js';
import { newId } from '../db/ids.js';
import { UsageError } from '../errors/index.js';
import { adminCommand } from './admin-command.js';
import { OPERATOR } from './actor.js';
import { hashPassword, passwordProblem } from '../sessions/index.js';
import { emailDomain } from '../mail/addresses.js';

export const ROLES: readonly Role[] = ['owner', 'admin', 'member'];

/** A password for people who did not choose one: 20 base64url characters (120 bits). */
export const generatePassword = () => randomBytes(15).toString('base64url');

export async function addMember(
  prisma: PrismaClient,
  input: { workspaceId: string; email: string; name: string; role: string; password: string | null },
) {
  const email = input.email.trim().toLowerCase();
  if (!emailDomain(email) || email.length > 320) throw new UsageError(`"${input.email}" is not an email address`);
  if (!ROLES.includes(input.role as Role)) throw new UsageError(`role must be one of ${ROLES.join(', ')}`);
  const name = input.name.trim();
  if (!name || name.length > 200) throw new UsageError('a name of 1-200 characters is required');
  if (input.password !== null) {
    const problem = passwordProblem(input.password);
    if (problem) throw new UsageError(problem);
  }
  const passwordHash = input.password === null ? undefined : await hashPassword(input.password);
  // The operator at the CLI adds people (no web invitation flow yet).
  return adminCommand(
    prisma,
    { workspaceId: input.workspaceId, actor: OPERATOR },
    { what: 'add members' },
    async ({ tx, audit }) => {
      const existing = await tx.user.findFirst({ where: { email: { equals: email, mode: 'insensitive' } } });
      if (
        existing &&
        (await tx.membership.findUnique({
          where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: existing.id } },
        }))
      ) {
        throw new UsageError(`${email} is already a member of this workspace`, 'conflict');
      }
      // A person who already has an account joins with it as it is: adding them to another
      // workspace never replaces the password they sign in with (they reset it themselves).
      const user =
        existing ??
        (await tx.user.create({ data: { id: newId('user'), email, name, passwordHash: passwordHash ?? null } }));
      await tx.membership.create({
        data: { id: newId('membership'), workspaceId: input.workspaceId, userId: user.id, role: input.role as Role },
      });
      await audit('member.added', user.id, { email, role: input.role });
      const role = input.role as Role;
      const hasPassword = Boolean(user.passwordHash);
      return { id: user.id, email: user.email, name: user.name, role, hasPassword, existingAccount: Boolean(existing) };
    },
  );
}
