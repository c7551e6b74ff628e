import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { opened, config, output, type JsonOption } from '../context.js';

export function registerMaintenanceCommands(program: Command) {
  program
    .command('db')
    .description('database maintenance')
    .command('migrate')
    .description('apply the migrations this version has and the database lacks')
    .option('--json')
    .action(async (options: JsonOption) => {
      const result = (await opened()).migrations;
      output(options, result, `Migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied.`);
    });

  program
    .command('schema')
    .description('the GraphQL schema')
    .command('print')
    .description('print the SDL (npm run schema:print writes graphql/schema.graphql)')
    .option('--out <file>')
    .action(async (options: { out?: string }) => {
      const { printedSchema } = await import('../../graphql/schema.js');
      const sdl = `${printedSchema()}\n`;
      if (options.out) await writeFile(options.out, sdl);
      else process.stdout.write(sdl);
    });

  program
    .command('openapi')
    .description('the v1 OpenAPI 3.1 document')
    .command('print')
    .description('print the document /api/v1/openapi.json serves')
    .option('--out <file>')
    .option('--base-url <url>', 'public base URL for servers[0]')
    .action(async (options: { out?: string; baseUrl?: string }) => {
      const [{ schema }, { v1OpenApiDocument }, { v1Schema }] = await Promise.all([import('../../graphql/schema.js'), import('../../rest/sofa.js'), import('../../rest/v1-schema.js')]);
      const text = `${JSON.stringify(v1OpenApiDocument(v1Schema(schema), options.baseUrl ?? config().PUBLIC_BASE_URL), null, 2)}\n`;
      if (options.out) await writeFile(options.out, text);
      else process.stdout.write(text);
    });

}
