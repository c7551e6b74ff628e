// Managing a project's prompts: the domain code behind the CLI, the settings JSON and the MCP write
// tools. Every change runs on the admin command path and is audited (projects/actor-project.ts says who may).
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { isIdOf, newId } from '../../db/ids.js';
import { UsageError } from '../../errors/index.js';
import { adminCommand, type Actor } from '../../workspaces/index.js';
import { PROMPTS_AND_DOMAINS, workspaceOfProject } from '../projects/actor-project.js';
import { underRule } from '../../errors/command-input.js';
import { PROMPT_LIMITS, PROMPT_TAGS, PROMPT_TEXT, PROMPT_TOPIC } from './prompt-input.js';
import type { PromptRow } from './prompt-repository.js';

export { PROMPT_LIMITS } from './prompt-input.js';

export interface PromptInput {
  text: string;
  topic?: string | null | undefined;
  tags?: string[] | undefined;
}

/** A prompt as every door shows it: the row the reads return. */
export type PromptView = PromptRow;

const view = (prompt: PromptView): PromptView => ({
  id: prompt.id,
  projectId: prompt.projectId,
  text: prompt.text,
  topic: prompt.topic,
  tags: prompt.tags,
  createdAt: prompt.createdAt,
  archivedAt: prompt.archivedAt,
});

function checkedTopic(topic: string | null | undefined): string | null | undefined {
  if (topic === undefined || topic === null) return topic;
  return underRule(PROMPT_TOPIC, topic) || null;
}

function checkedTags(tags: string[] | undefined): string[] | undefined {
  if (tags === undefined) return undefined;
  return [...new Set(underRule(PROMPT_TAGS, tags).filter(Boolean))];
}

export async function listPrompts(
  prisma: PrismaClient,
  input: { projectId: string; actor: Actor; includeArchived?: boolean },
): Promise<PromptView[]> {
  const project = await workspaceOfProject(prisma, input.projectId, input.actor);
  const prompts = await prisma.aiPrompt.findMany({
    where: { projectId: project.id, ...(input.includeArchived ? {} : { archivedAt: null }) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return prompts.map(view);
}

/** Tracks new prompt texts; a text the project already has is reported, not duplicated. */
export async function addPrompts(
  prisma: PrismaClient,
  input: { projectId: string; prompts: PromptInput[]; actor: Actor },
): Promise<{ added: PromptView[]; existing: PromptView[] }> {
  if (!input.prompts.length) throw new UsageError('give at least one prompt');
  if (input.prompts.length > PROMPT_LIMITS.perCall)
    throw new UsageError(`at most ${PROMPT_LIMITS.perCall} prompts at once`);
  const prompts = input.prompts.map((prompt) => {
    const text = underRule(PROMPT_TEXT, prompt.text);
    return { text, topic: checkedTopic(prompt.topic) ?? null, tags: checkedTags(prompt.tags) ?? [] };
  });
  const project = await workspaceOfProject(prisma, input.projectId, input.actor);
  return adminCommand(
    prisma,
    { workspaceId: project.workspaceId, actor: input.actor },
    PROMPTS_AND_DOMAINS,
    async ({ tx, audit }) => {
      const existing = await tx.aiPrompt.findMany({
        where: { projectId: project.id, text: { in: prompts.map((prompt) => prompt.text) } },
      });
      const known = new Set(existing.map((prompt) => prompt.text));
      const fresh = [
        ...new Map(prompts.filter((prompt) => !known.has(prompt.text)).map((prompt) => [prompt.text, prompt])).values(),
      ];
      const base = Date.now();
      const added = [];
      // A millisecond apart, in the order given: "oldest first" lists them as they were added.
      for (const [index, prompt] of fresh.entries()) {
        added.push(
          await tx.aiPrompt.create({
            data: {
              id: newId('prompt'),
              workspaceId: project.workspaceId,
              projectId: project.id,
              ...prompt,
              createdAt: new Date(base + index),
            },
          }),
        );
      }
      if (added.length) await audit('ai_prompt.added', project.id, { prompts: added.map((prompt) => prompt.id) });
      return { added: added.map(view), existing: existing.map(view) };
    },
  );
}

/** The prompts, all of one project the actor may change; unknown ids are named. */
async function promptsOf(prisma: PrismaClient, promptIds: readonly string[], actor: Actor) {
  if (!promptIds.length) throw new UsageError('give at least one prompt id');
  if (promptIds.length > PROMPT_LIMITS.perCall)
    throw new UsageError(`at most ${PROMPT_LIMITS.perCall} prompts at once`);
  const malformed = promptIds.filter((id) => !isIdOf('prompt', id));
  if (malformed.length) throw new UsageError(`not prompt ids (pmt_…): ${malformed.slice(0, 5).join(', ')}`);
  const prompts = await prisma.aiPrompt.findMany({
    where: { id: { in: [...promptIds] }, ...(actor.workspaceId ? { workspaceId: actor.workspaceId } : {}) },
  });
  const missing = promptIds.filter((id) => !prompts.some((prompt) => prompt.id === id));
  if (missing.length) throw new UsageError(`no prompt ${missing.slice(0, 5).join(', ')}`, 'not_found');
  const workspaces = new Set(prompts.map((prompt) => prompt.workspaceId));
  if (workspaces.size > 1)
    throw new UsageError('the prompts belong to different workspaces; change them one workspace at a time');
  return { prompts, workspaceId: prompts[0]!.workspaceId };
}

/** Archives (stops tracking) or restores prompts; their answers stay. */
export async function setPromptsArchived(
  prisma: PrismaClient,
  input: { promptIds: string[]; archived: boolean; actor: Actor },
): Promise<PromptView[]> {
  const { prompts, workspaceId } = await promptsOf(prisma, input.promptIds, input.actor);
  return adminCommand(prisma, { workspaceId, actor: input.actor }, PROMPTS_AND_DOMAINS, async ({ tx, audit }) => {
    const ids = prompts.map((prompt) => prompt.id);
    await tx.aiPrompt.updateMany({
      where: { id: { in: ids }, archivedAt: input.archived ? null : { not: null } },
      data: { archivedAt: input.archived ? new Date() : null },
    });
    for (const projectId of new Set(prompts.map((prompt) => prompt.projectId))) {
      await audit(input.archived ? 'ai_prompt.archived' : 'ai_prompt.restored', projectId, {
        prompts: prompts.filter((prompt) => prompt.projectId === projectId).map((prompt) => prompt.id),
      });
    }
    return (
      await tx.aiPrompt.findMany({ where: { id: { in: ids } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
    ).map(view);
  });
}

/** Sets the topic and/or the tags of prompts in bulk (given fields replace; null clears the topic). */
export async function updatePrompts(
  prisma: PrismaClient,
  input: { promptIds: string[]; topic?: string | null | undefined; tags?: string[] | undefined; actor: Actor },
): Promise<PromptView[]> {
  const topic = checkedTopic(input.topic);
  const tags = checkedTags(input.tags);
  if (topic === undefined && tags === undefined) throw new UsageError('give a topic, tags or both');
  const { prompts, workspaceId } = await promptsOf(prisma, input.promptIds, input.actor);
  return adminCommand(prisma, { workspaceId, actor: input.actor }, PROMPTS_AND_DOMAINS, async ({ tx, audit }) => {
    const ids = prompts.map((prompt) => prompt.id);
    await tx.aiPrompt.updateMany({
      where: { id: { in: ids } },
      data: { ...(topic === undefined ? {} : { topic }), ...(tags === undefined ? {} : { tags }) },
    });
    for (const projectId of new Set(prompts.map((prompt) => prompt.projectId))) {
      await audit('ai_prompt.updated', projectId, {
        prompts: prompts.filter((prompt) => prompt.projectId === projectId).map((prompt) => prompt.id),
        ...(topic === undefined ? {} : { topic }),
        ...(tags === undefined ? {} : { tags }),
      });
    }
    return (
      await tx.aiPrompt.findMany({ where: { id: { in: ids } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
    ).map(view);
  });
}
