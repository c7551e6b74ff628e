import type { Command } from 'commander';
import { UsageError } from '../../errors/index.js';
import { listRules, setRule } from '../../signals/rule-management.js';
import { db, output, actorOf, AS_OPTION, type JsonOption } from '../context.js';

export function registerSignalsCommands(program: Command) {
  const signals = program.command('signals').description('Signal rules of AI-visibility projects');
  signals
    .command('rules')
    .requiredOption('--project <id>')
    .option('--json')
    .action(async (options: { project: string } & JsonOption) => {
      const rules = await listRules((await db()).prisma, options.project);
      output(
        options,
        rules,
        rules
          .map(
            (r) =>
              `${r.kind.padEnd(26)} ${r.enabled ? 'on ' : 'off'}  threshold ${r.threshold}` +
              `${r.isDefault ? ' (default)' : ''}  — fires when ${r.meaning}`,
          )
          .join('\n'),
      );
    });
  signals
    .command('set-rule')
    .requiredOption('--project <id>')
    .requiredOption('--kind <kind>')
    .requiredOption('--threshold <n>')
    .option('--disabled', 'keep the threshold but stop the rule from firing')
    .option(...AS_OPTION)
    .option('--json')
    .action(
      async (
        options: { project: string; kind: string; threshold: string; disabled?: boolean; as?: string } & JsonOption,
      ) => {
        const threshold = Number(options.threshold);
        if (options.threshold.trim() === '' || Number.isNaN(threshold))
          throw new UsageError('--threshold must be a number');
        const rule = await setRule((await db()).prisma, {
          projectId: options.project,
          kind: options.kind,
          threshold,
          enabled: !options.disabled,
          actor: actorOf(options),
        });
        output(options, rule, `${rule.kind} is ${rule.enabled ? 'on' : 'off'} with threshold ${rule.threshold}.`);
      },
    );
}
