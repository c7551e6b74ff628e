// Write tools of the Prompts toolset: the prompts a project tracks.
import { z } from 'zod/v4';
import { actorOf, declare, type WriteTool } from './declare.js';
import { addPrompts, setPromptsArchived, updatePrompts } from '../../../ai-visibility/index.js';

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
    input: {
      projectId: z.string().describe('prj_…'),
      texts: z.array(z.string()).min(1).max(500),
      topic: z.string().optional(),
      tags: z.array(z.string()).optional(),
    },
    output: { added: 'array', existing: 'array' },
    run: async (deps, args) =>
      addPrompts(deps.prisma, {
        projectId: args.projectId,
        prompts: args.texts.map((text) => ({ text, topic: args.topic, tags: args.tags })),
        actor: actorOf(deps),
      }),
  }),
  declare({
    name: 'update_prompts',
    toolset: 'prompts',
    destructive: true,
    idempotent: true,
    title: 'Update prompts',
    description:
      'Set the topic and/or the tags of several prompts at once (given fields replace; topic null clears it).',
    input: {
      promptIds: z.array(z.string()).min(1).max(500).describe('pmt_…'),
      topic: z.string().nullable().optional(),
      tags: z.array(z.string()).optional(),
    },
    output: { prompts: 'array' },
    run: async (deps, args) => ({
      prompts: await updatePrompts(deps.prisma, {
        promptIds: args.promptIds,
        topic: args.topic,
        tags: args.tags,
        actor: actorOf(deps),
      }),
    }),
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
      input: { promptIds: z.array(z.string()).min(1).max(500).describe('pmt_…') },
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
