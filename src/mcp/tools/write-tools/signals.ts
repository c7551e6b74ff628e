// Write tools of the Signals toolset: rules and acknowledgements.
import { z } from 'zod/v4';
import { actorOf, declare, type WriteTool } from './declare.js';
import { acknowledgeSignal, setRule, SIGNAL_KINDS } from '../../../signals/index.js';

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
    input: {
      projectId: z.string().describe('prj_…'),
      kind: z.enum(SIGNAL_KINDS),
      threshold: z.number(),
      enabled: z.boolean().default(true),
    },
    output: { rule: 'object' },
    run: async (deps, args) => ({
      rule: await setRule(deps.prisma, {
        projectId: args.projectId,
        kind: args.kind,
        threshold: args.threshold,
        enabled: args.enabled,
        actor: actorOf(deps),
      }),
    }),
  }),
];
