import type { Command } from 'commander';
import { listRules, setRule } from '../../signals/rule-management.js';
import { SET_RULE_INPUT } from '../../signals/rule-input.js';
import { db, output, actorOf, AS_OPTION, cliInput, type JsonOption } from '../context.js';

/** A threshold as a person writes it: digits with an optional sign and decimal part. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

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
        const input = cliInput(SET_RULE_INPUT, {
          projectId: options.project,
          kind: options.kind,
          // A decimal as written ("10", "0.5", "-0.2"); anything else ("0x10", " 5", "1e3") is not a number (NaN),
          // which the shape refuses.
          threshold: DECIMAL.test(options.threshold) ? Number(options.threshold) : Number.NaN,
          enabled: !options.disabled,
        });
        const rule = await setRule((await db()).prisma, { ...input, actor: actorOf(options) });
        output(options, rule, `${rule.kind} is ${rule.enabled ? 'on' : 'off'} with threshold ${rule.threshold}.`);
      },
    );
}
