// The input of the signal-rule admin command, declared once (errors/command-input.ts): the CLI
// and the MCP write tool parse with it. A threshold's range depends on the kind, so the command
// checks it (rules.ts says the ranges).
import { z } from 'zod/v4';
import { SIGNAL_KINDS } from './rules.js';

export const SET_RULE_INPUT = {
  projectId: z.string().describe('prj_…'),
  kind: z.enum(SIGNAL_KINDS, { error: `a kind is one of ${SIGNAL_KINDS.join(', ')}` }),
  threshold: z.number({ error: 'a threshold is a number' }),
  enabled: z.boolean().default(true),
};
