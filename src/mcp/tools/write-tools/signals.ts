// Write tools of the Signals toolset: rules and acknowledgements.
import { z } from 'zod/v4';
import { actorOf, declare, type WriteTool } from './declare.js';
import { acknowledgeSignal, SET_RULE_INPUT, setRule } from '../../../signals/index.js';

export const SIGNAL_WRITE_TOOLS: WriteTool[] = [
  declare({
    name: 'acknowledge_signal',
    toolset: 'signals',
    destructive: false,
    idempotent: true,
    title: 'Acknowledge signal',
    description: 'Mark a signal (sig_…) as seen and dealt with.',
    input: { id: z.string().describe('sig_…') },
    output: { signal: 'object' },
    run: async (deps, args) => ({
      signal: await acknowledgeSignal(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        signalId: args.id,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'set_signal_rule',
    toolset: 'signals',
    destructive: true,
    idempotent: true,
    title: 'Set signal rule',
    description:
      "Set a project's signal rule threshold and switch it on or off (owners and admins); " +
      'list_signal_rules explains the kinds.',
    input: SET_RULE_INPUT,
    output: { rule: 'object' },
    run: async (deps, args) => ({ rule: await setRule(deps.prisma, { ...args, actor: actorOf(deps) }) }),
  }),
];
