import type { Command } from 'commander';
import {
  ADD_PROMPTS_INPUT,
  addPrompts,
  PROMPT_IDS_INPUT,
  promptsToAdd,
  UPDATE_PROMPTS_INPUT,
  listPrompts,
  parseCompetitorDomains,
  setProjectDomains,
  setPromptsArchived,
  updatePrompts,
  type PromptView,
} from '../../ai-visibility/index.js';
import { db, output, actorOf, AS_OPTION, cliInput, type JsonOption } from '../context.js';

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
const line = (prompt: PromptView) =>
  `${prompt.id}  ${prompt.archivedAt ? '[archived] ' : ''}${prompt.text}` +
  (prompt.topic ? `  (topic: ${prompt.topic})` : '') +
  (prompt.tags.length ? `  #${prompt.tags.join(' #')}` : '');

export function registerPromptsCommands(program: Command) {
  const prompts = program.command('prompts').description('Tracked prompts of AI-visibility projects');
  registerPromptListCommands(prompts);
  registerPromptChangeCommands(prompts);
  registerProjectDomainsCommand(program.command('projects').description('AI-visibility projects'));
}

/** Listing and adding prompts. */
function registerPromptListCommands(prompts: Command) {
  prompts
    .command('list')
    .requiredOption('--project <id>')
    .option('--archived', 'archived prompts too')
    .option('--json')
    .action(async (options: { project: string; archived?: boolean } & JsonOption) => {
      const found = await listPrompts((await db()).prisma, {
        projectId: options.project,
        actor: actorOf({}),
        includeArchived: options.archived ?? false,
      });
      output(options, found, found.map(line).join('\n') || 'No prompts.');
    });
  prompts
    .command('add')
    .requiredOption('--project <id>')
    .requiredOption('--text <text>')
    .option('--topic <topic>')
    .option('--tags <a,b>')
    .option(...AS_OPTION)
    .option('--json')
    .action(
      async (options: { project: string; text: string; topic?: string; tags?: string; as?: string } & JsonOption) => {
        const input = cliInput(ADD_PROMPTS_INPUT, {
          projectId: options.project,
          texts: [options.text],
          topic: options.topic,
          tags: list(options.tags),
        });
        const result = await addPrompts((await db()).prisma, { ...promptsToAdd(input), actor: actorOf(options) });
        output(
          options,
          result,
          result.added.length ? `Added ${line(result.added[0]!)}` : `Already tracked: ${line(result.existing[0]!)}`,
        );
      },
    );
}

/** Archiving, restoring and retagging prompts. */
function registerPromptChangeCommands(prompts: Command) {
  for (const verb of ['archive', 'restore'] as const) {
    prompts
      .command(`${verb} <promptIds...>`)
      .option(...AS_OPTION)
      .option('--json')
      .action(async (promptIds: string[], options: { as?: string } & JsonOption) => {
        const input = cliInput(PROMPT_IDS_INPUT, { promptIds });
        const changed = await setPromptsArchived((await db()).prisma, {
          ...input,
          archived: verb === 'archive',
          actor: actorOf(options),
        });
        output(options, changed, changed.map(line).join('\n'));
      });
  }
  prompts
    .command('tag <promptIds...>')
    .description('set the topic and/or the tags of prompts (given fields replace; --topic "" clears it)')
    .option('--topic <topic>')
    .option('--tags <a,b>')
    .option(...AS_OPTION)
    .option('--json')
    .action(async (promptIds: string[], options: { topic?: string; tags?: string; as?: string } & JsonOption) => {
      const input = cliInput(UPDATE_PROMPTS_INPUT, {
        promptIds,
        topic: options.topic === undefined ? undefined : options.topic || null,
        tags: list(options.tags),
      });
      const changed = await updatePrompts((await db()).prisma, { ...input, actor: actorOf(options) });
      output(options, changed, changed.map(line).join('\n'));
    });
}

/** A project's own and its competitors' domains. */
function registerProjectDomainsCommand(projects: Command) {
  projects
    .command('set-domains')
    .requiredOption('--project <id>')
    .requiredOption('--domains <a.com,b.com>', "the brand's own domains")
    .option(
      '--competitor <name=c.com,d.com>',
      "a tracked competitor's domains (repeatable)",
      (value: string, all: string[]) => [...all, value],
      [] as string[],
    )
    .option(...AS_OPTION)
    .option('--json')
    .action(async (options: { project: string; domains: string; competitor: string[]; as?: string } & JsonOption) => {
      const competitorDomains = options.competitor.map(parseCompetitorDomains);
      const result = await setProjectDomains((await db()).prisma, {
        projectId: options.project,
        domains: list(options.domains) ?? [],
        competitorDomains: competitorDomains.length ? competitorDomains : undefined,
        actor: actorOf(options),
      });
      output(
        options,
        result,
        [
          `Domains of ${result.projectId}: ${result.domains.join(', ') || 'none'}`,
          ...result.competitorDomains.map((competitor) => `  ${competitor.name}: ${competitor.domains.join(', ')}`),
        ].join('\n'),
      );
    });
}
