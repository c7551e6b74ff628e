// The inputs of the prompts' admin commands, declared once (errors/command-input.ts): settings,
// the CLI and the MCP write tools parse with these shapes, and the commands hold callers that skip
// the parse to the same rules.
import { z } from 'zod/v4';
import type { CommandInput } from '../../errors/command-input.js';

export const PROMPT_LIMITS = { text: 500, topic: 100, tag: 50, tags: 20, perCall: 500 } as const;

export const PROMPT_TEXT = z
  .string()
  .trim()
  .min(1, `a prompt has 1-${PROMPT_LIMITS.text} characters`)
  .max(PROMPT_LIMITS.text, `a prompt has 1-${PROMPT_LIMITS.text} characters`);
/** Blank is no topic (trimmed before the limit). */
export const PROMPT_TOPIC = z
  .string()
  .trim()
  .max(PROMPT_LIMITS.topic, `a topic has at most ${PROMPT_LIMITS.topic} characters`);
/** Tags are trimmed; blanks and repeats drop out before they are counted. */
export const PROMPT_TAGS = z
  .array(z.string().trim().max(PROMPT_LIMITS.tag, `a tag has at most ${PROMPT_LIMITS.tag} characters`))
  .refine((tags) => new Set(tags.filter(Boolean)).size <= PROMPT_LIMITS.tags, `at most ${PROMPT_LIMITS.tags} tags`);
const PROMPT_IDS = z
  .array(z.string())
  .min(1, 'give at least one prompt id')
  .max(PROMPT_LIMITS.perCall, `at most ${PROMPT_LIMITS.perCall} prompts at once`)
  .describe('pmt_…');

/** Adding prompts to a project: the texts share one topic and one set of tags. */
export const ADD_PROMPTS_INPUT = {
  projectId: z.string().describe('prj_…'),
  texts: z
    .array(PROMPT_TEXT)
    .min(1, 'give at least one prompt')
    .max(PROMPT_LIMITS.perCall, `at most ${PROMPT_LIMITS.perCall} prompts at once`),
  topic: PROMPT_TOPIC.optional(),
  tags: PROMPT_TAGS.optional(),
};

/** Setting the topic and/or the tags of prompts (null clears the topic). */
export const UPDATE_PROMPTS_INPUT = {
  promptIds: PROMPT_IDS,
  topic: PROMPT_TOPIC.nullable().optional(),
  tags: PROMPT_TAGS.optional(),
};

/** Archiving or restoring prompts. */
export const PROMPT_IDS_INPUT = { promptIds: PROMPT_IDS };

/** The add command's prompts from its parsed input. */
export const promptsToAdd = ({ projectId, texts, topic, tags }: CommandInput<typeof ADD_PROMPTS_INPUT>) => ({
  projectId,
  prompts: texts.map((text) => ({ text, topic, tags })),
});
