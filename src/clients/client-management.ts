// Creating, renaming and archiving clients: the domain code of the MCP write tools (members may,
// as for reports and projects: clients are the workspace's content). Every change is audited.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { isIdOf, newId } from '../db/ids.js';
import { UsageError } from '../errors/index.js';
import { runStatement, sqlStatement } from '../db/sql-runner.js';
import { adminCommand, sqlOf, type Actor, type AdminCommandPolicy } from '../workspaces/index.js';

const CLIENTS: AdminCommandPolicy = { what: 'change clients', members: true };

function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 200) throw new UsageError('a client name has 1-200 characters');
  return trimmed;
}

const view = (client: {
  id: string;
  name: string;
  currency: string | null;
  createdAt: Date;
  archivedAt: Date | null;
}) => ({
  id: client.id,
  name: client.name,
  currency: client.currency,
  createdAt: client.createdAt.toISOString(),
  archivedAt: client.archivedAt?.toISOString() ?? null,
});

export function createClient(prisma: PrismaClient, input: { workspaceId: string; name: string; actor: Actor }) {
  const name = validName(input.name);
  return adminCommand(prisma, input, CLIENTS, async ({ tx, audit }) => {
    const client = await tx.client.create({ data: { id: newId('client'), workspaceId: input.workspaceId, name } });
    await audit('client.created', client.id, { name });
    return view(client);
  });
}

/** A client not archived: of `workspaceId` when given (the operator CLI acts on any workspace's). */
async function liveClient(tx: Pick<PrismaClient, 'client'>, clientId: string, workspaceId?: string) {
  if (!isIdOf('client', clientId)) throw new UsageError(`${clientId} is not a client id (cli_…)`);
  const client = await tx.client.findFirst({
    where: { id: clientId, archivedAt: null, ...(workspaceId ? { workspaceId } : {}) },
  });
  if (!client) throw new UsageError(`no client ${clientId}${workspaceId ? ' in this workspace' : ''}`, 'not_found');
  return client;
}

export function renameClient(
  prisma: PrismaClient,
  input: { workspaceId: string; clientId: string; name: string; actor: Actor },
) {
  const name = validName(input.name);
  return adminCommand(prisma, input, CLIENTS, async ({ tx, audit }) => {
    const client = await liveClient(tx, input.clientId, input.workspaceId);
    const renamed = await tx.client.update({ where: { id: client.id }, data: { name } });
    await audit('client.updated', client.id, { name });
    return view(renamed);
  });
}

/** Takes a client out of every list and read; its reports, projects and facts stay. */
export function archiveClient(prisma: PrismaClient, input: { workspaceId: string; clientId: string; actor: Actor }) {
  return adminCommand(prisma, input, CLIENTS, async ({ tx, audit }) => {
    const client = await liveClient(tx, input.clientId, input.workspaceId);
    const archived = await tx.client.update({ where: { id: client.id }, data: { archivedAt: new Date() } });
    await audit('client.archived', client.id);
    return view(archived);
  });
}

const SET_CURRENCY = sqlStatement<never, { clientId: string; currency: string }>(
  'clients.set-currency',
  (param) => `UPDATE clients SET currency = ${param('currency')}, data_version = data_version + 1
    WHERE id = ${param('clientId')}`,
);

/** An ISO 4217 code this runtime knows ("EUR"); anything else is refused with the rule. */
function validCurrency(currency: string): string {
  const code = currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !Intl.supportedValuesOf('currency').includes(code))
    throw new UsageError(`${currency.slice(0, 20)} is not an ISO 4217 currency code (such as USD, EUR, GBP)`);
  return code;
}

/**
 * Sets the currency of a client's money figures. Its data version moves with it, so a kept answer of its reports'
 * data is computed again with the new code.
 */
export async function setClientCurrency(
  prisma: PrismaClient,
  input: { clientId: string; currency: string; actor: Actor },
) {
  const currency = validCurrency(input.currency);
  const found = await liveClient(prisma, input.clientId);
  return adminCommand(
    prisma,
    { workspaceId: found.workspaceId, actor: input.actor },
    CLIENTS,
    async ({ tx, audit }) => {
      await runStatement(sqlOf(tx), SET_CURRENCY, { clientId: found.id, currency });
      await audit('client.updated', found.id, { currency });
      return view({ ...found, currency });
    },
  );
}
