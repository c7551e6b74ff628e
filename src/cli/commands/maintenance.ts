import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { opened, config, output, type JsonOption } from '../context.js';

/** Written before the CLI exits: a large write to a pipe is otherwise cut at exit. */
const printed = (text: string) =>
  new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));

export function registerMaintenanceCommands(program: Command) {
  program
    .command('db')
    .description('database maintenance')
    .command('migrate')
    .description('apply the migrations this version has and the database lacks')
    .option('--json')
    .action(async (options: JsonOption) => {
      const result = (await opened()).migrations;
      output(
        options,
        result,
        `Migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied.`,
      );
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
      else await printed(sdl);
    });

  program
    .command('openapi')
    .description('the v1 OpenAPI 3.1 document (or its Swagger 2.0 twin)')
    .command('print')
    .description('print the document /api/v1/openapi.json serves (--swagger: /api/v1/swagger.json)')
    .option('--out <file>')
    .option(
      '--base-url <url>',
      'the origin the document names as its server (default: PUBLIC_BASE_URL, else http://localhost:PORT)',
    )
    .option('--swagger', 'the Swagger 2.0 document')
    .action(async (options: { out?: string; baseUrl?: string; swagger?: boolean }) => {
      const [{ schema }, { v1OpenApiDocument }, { v1Schema }, { forOrigin }, { toSwagger2 }] = await Promise.all([
        import('../../graphql/schema.js'),
        import('../../rest/sofa.js'),
        import('../../rest/v1-schema.js'),
        import('../../rest/openapi.js'),
        import('../../rest/swagger.js'),
      ]);
      const { PUBLIC_BASE_URL, PORT } = config();
      const origin = new URL(options.baseUrl ?? PUBLIC_BASE_URL ?? `http://localhost:${PORT}`).origin;
      const document = forOrigin(v1OpenApiDocument(v1Schema(schema)), origin);
      const text = `${JSON.stringify(options.swagger ? toSwagger2(document, origin) : document, null, 2)}\n`;
      if (options.out) await writeFile(options.out, text);
      else await printed(text);
    });
}
