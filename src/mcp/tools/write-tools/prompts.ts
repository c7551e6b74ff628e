// Write tools of the Prompts toolset: the prompts a project tracks.
import { actorOf, declare, type WriteTool } from './declare.js';
import {
  ADD_PROMPTS_INPUT,
  addPrompts,
  PROMPT_IDS_INPUT,
  promptsToAdd,
  setPromptsArchived,
  UPDATE_PROMPTS_INPUT,
  updatePrompts,
} from '../../../ai-visibility/index.js';

export const PROMPT_WRITE_TOOLS: WriteTool[] = [
  declare({
    name: 'add_prompts',
    toolset: 'prompts',
    destructive: false,
    idempotent: true,
    title: 'Add prompts',
    description:
      'Track new prompts in a project (texts it already tracks are reported, not duplicated), ' +
      'with an optional topic and tags for all of them.',
    input: ADD_PROMPTS_INPUT,
    output: { added: 'array', existing: 'array' },
    run: async (deps, args) => addPrompts(deps.prisma, { ...promptsToAdd(args), actor: actorOf(deps) }),
  }),
  declare({
    name: 'update_prompts',
    toolset: 'prompts',
    destructive: true,
    idempotent: true,
    title: 'Update prompts',
    description:
      'Set the topic and/or the tags of several prompts at once (given fields replace; topic null clears it).',
    input: UPDATE_PROMPTS_INPUT,
    output: { prompts: 'array' },
    run: async (deps, args) => ({ prompts: await updatePrompts(deps.prisma, { ...args, actor: actorOf(deps) }) }),
  }),
  ...(['archive', 'restore'] as const).map((verb) =>
    declare({
      name: `${verb}_prompts`,
      toolset: 'prompts',
      destructive: verb === 'archive',
      idempotent: true,
      title: verb === 'archive' ? 'Archive prompts' : 'Restore prompts',
      description:
        verb === 'archive'
          ? 'Stop tracking prompts (their answers stay readable); restore_prompts undoes it.'
          : 'Track archived prompts again.',
      input: PROMPT_IDS_INPUT,
      output: { prompts: 'array' },
      run: async (deps, args) => ({
        prompts: await setPromptsArchived(deps.prisma, {
          promptIds: args.promptIds,
          archived: verb === 'archive',
          actor: actorOf(deps),
        }),
      }),
    }),
  ),
];
