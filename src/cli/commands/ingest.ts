import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors/index.js';
import { ingest, type IngestKind } from '../../ingest/service.js';
import { progressBar } from '../progress.js';
import { db, output, type JsonOption } from '../context.js';

export function registerIngestCommands(program: Command) {
  const ingestCommand = program
    .command('ingest')
    .description('Import provider facts or AI-visibility scans from NDJSON');
  for (const kind of ['metrics', 'scans'] as const satisfies IngestKind[]) {
    ingestCommand
      .command(`${kind} <file>`)
      .option('--skip-invalid', 'import the valid lines even when some are invalid')
      .option('--json')
      .action(async (file: string, options: { skipInvalid?: boolean } & JsonOption) => {
        let body: Uint8Array;
        try {
          body = await readFile(file);
        } catch (error) {
          throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
        }
        const bar = progressBar(`ingesting ${kind}`);
        const summary = await ingest((await db()).pool, kind, body, {
          skipInvalid: options.skipInvalid ?? false,
          onProgress: bar.update,
        });
        bar.finish();
        const refused = summary.problems.length > 0 && !options.skipInvalid;
        output(
          options,
          summary,
          [
            ...summary.problems.slice(0, 50).map((p) => `line ${p.line}: ${p.message}`),
            `accepted ${summary.accepted}, replaced ${summary.replaced}` +
              (summary.unchanged === undefined ? '' : `, unchanged ${summary.unchanged}`) +
              `, rejected ${summary.rejected}` +
              (refused ? ' — nothing imported (use --skip-invalid to import the valid lines)' : ''),
          ].join('\n'),
        );
        if (refused) process.exitCode = 1;
      });
  }
}
