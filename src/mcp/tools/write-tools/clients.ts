// Write tools of the Clients toolset: create, rename and archive clients.
import { z } from 'zod/v4';
import { actorOf, declare, type WriteTool } from './declare.js';
import { archiveClient, createClient, renameClient } from '../../../clients/index.js';

export const CLIENT_WRITE_TOOLS: WriteTool[] = [
  declare({
    name: 'create_client',
    toolset: 'clients',
    destructive: false,
    idempotent: false,
    title: 'Create client',
    description: 'Add a client (a customer of the workspace) by name; connect its data providers in the app.',
    input: { name: z.string() },
    output: { client: 'object' },
    run: async (deps, args) => ({
      client: await createClient(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        name: args.name,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'update_client',
    toolset: 'clients',
    destructive: true,
    idempotent: true,
    title: 'Rename client',
    description: 'Rename a client (cli_…).',
    input: { id: z.string().describe('cli_…'), name: z.string() },
    output: { client: 'object' },
    run: async (deps, args) => ({
      client: await renameClient(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        clientId: args.id,
        name: args.name,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'archive_client',
    toolset: 'clients',
    destructive: true,
    idempotent: false,
    title: 'Archive client',
    description: 'Archive a client: it leaves every list, the API and the app; its reports and projects stay.',
    input: { id: z.string().describe('cli_…') },
    output: { client: 'object' },
    run: async (deps, args) => ({
      client: await archiveClient(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        clientId: args.id,
        actor: actorOf(deps),
      }),
    }),
  }),
];
