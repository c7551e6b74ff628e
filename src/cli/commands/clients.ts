import type { Command } from 'commander';
import { setClientCurrency } from '../../clients/index.js';
import { actorOf, AS_OPTION, db, output, type JsonOption } from '../context.js';

export function registerClientsCommands(program: Command) {
  program
    .command('clients')
    .description('Manage clients')
    .command('set-currency')
    .description("the ISO 4217 code of a client's money figures (cost, CPC, CPM, conversion value)")
    .requiredOption('--client <id>')
    .requiredOption('--currency <code>', 'such as USD, EUR, GBP')
    .option(...AS_OPTION)
    .option('--json')
    .action(async (options: { client: string; currency: string; as?: string } & JsonOption) => {
      const client = await setClientCurrency((await db()).prisma, {
        clientId: options.client,
        currency: options.currency,
        actor: actorOf(options),
      });
      output(options, client, `${client.name} reports money in ${client.currency}.`);
    });
}
