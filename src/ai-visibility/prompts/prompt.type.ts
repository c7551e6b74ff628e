import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { NodeInterface, registerNodeKind } from '../../graphql/node.js';
import { keysetPage, keysetPageOf } from '../../graphql/envelope.js';
import { cursorBinding, decodeCursor, encodeCursor, toPage } from '../../db/paging.js';
import { isInstant, isoInstant } from '../../dates/instant.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { invalidParameter, withinBounds } from '../../errors/index.js';
import { boundedIntArg, boundedListCost } from '../../graphql/bounded-int.js';
import { LocaleTotalsType } from '../metrics/metrics.type.js';
import { runFilterArgs } from '../common/run-filter-args.type.js';
import { metricsRange, PROMPTS_LIMIT, PROMPTS_RANGE, runFilterOf, type RunFilterArgs } from '../common/read-filters.js';
import { ProjectType } from '../projects/project.type.js';
import { projectRead } from '../projects/project-read.type.js';
import { bounded } from '../../graphql/cost.js';
import { localesOf, MAX_ROWS } from '../common/read-rows.js';
import type { PromptFilter, PromptRow } from './prompt-repository.js';
import type { RunFilter } from '../common/run-filter.js';

/** A prompt as read: the filter its totals are pooled over travels with it. */
export type ListedPrompt = PromptRow & { filter: RunFilter };

export const PromptType = builder.objectRef<ListedPrompt>('AiVisibilityPrompt').implement({
  description: 'A prompt a project tracks; each time it is asked to a model in a locale is a run with an answer.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id'),
    projectId: t.exposeString('projectId'),
    text: t.exposeString('text'),
    topic: t.exposeString('topic', { nullable: true }),
    tags: t.exposeStringList('tags'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    archivedAt: t.expose('archivedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Null while the prompt is tracked.',
    }),
    totals: t.field({
      type: [LocaleTotalsType],
      description:
        "Per locale: the metrics endpoint's counters and rates pooled over this prompt's runs in the " +
        'range the prompts were read for (default: the last 30 days).',
      complexity: bounded(MAX_ROWS.locales),
      resolve: (prompt, _args, ctx) => ctx.loaders.promptTotals.load({ parentId: prompt.id, filter: prompt.filter }),
    }),
  }),
});

registerNodeKind('prompt', {
  typeName: 'AiVisibilityPrompt',
  load: async (ctx, id) => {
    const prompt = await ctx.loaders.prompt.load(id);
    return prompt && { ...prompt, filter: { range: metricsRange(null, null, ctx.now), model: null, locale: null } };
  },
});

const PromptList = keysetPage(
  'AiVisibilityPromptList',
  PromptType,
  'prompts',
  "A page of a project's prompts, oldest first (creation time, then id).",
);

const promptArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  topic: arg.string({ required: false, description: 'Only prompts with this topic.' }),
  tag: arg.string({ required: false, description: 'Only prompts with this tag.' }),
  includeArchived: arg.boolean({
    required: false,
    defaultValue: false,
    description: 'true: archived prompts too; false (default): tracked prompts only.',
  }),
  limit: boundedIntArg(arg, PROMPTS_LIMIT, 'Prompts per page, oldest first (meta.total counts them all)'),
  cursor: arg.string({ required: false, description: 'meta.nextCursor of the previous page.' }),
  ...runFilterArgs(arg, PROMPTS_RANGE),
});

type PromptListArgs = RunFilterArgs & {
  topic?: string | null;
  tag?: string | null;
  includeArchived?: boolean | null;
  limit?: number | null;
  cursor?: string | null;
};

const promptFilterOf = (args: PromptListArgs): PromptFilter => {
  for (const name of ['topic', 'tag'] as const)
    if ((args[name]?.length ?? 0) > 100) throw invalidParameter(name, `${name} has at most 100 characters.`);
  return { topic: args.topic ?? null, tag: args.tag ?? null, includeArchived: args.includeArchived ?? false };
};

projectRead({
  root: 'aiVisibilityPrompts',
  field: 'prompts',
  description: "A project's tracked prompts, oldest first, each with its totals per locale over the range.",
  what: 'prompts',
  type: PromptList,
  args: promptArgs,
  complexity: (args) => boundedListCost(args.limit, PROMPTS_LIMIT),
  read: (args: PromptListArgs, ctx) => {
    const filter = runFilterOf(args, ctx.now, PROMPTS_RANGE);
    const prompts = promptFilterOf(args);
    const limit = Math.min(withinBounds(args.limit, PROMPTS_LIMIT), ctx.config.LIST_ROW_CAP);
    return async (project) => {
      // Which prompts are listed depends on these filters only; the range, model and locale shape their totals.
      const binding = cursorBinding(
        ctx.workspace.workspaceId,
        project.id,
        'prompts',
        prompts.topic,
        prompts.tag,
        prompts.includeArchived,
      );
      const cursor = args.cursor ? decodeCursor(args.cursor, isInstant, 'cursor', binding) : null;
      const rows = await ctx.repositories.prompts.list(
        project.id,
        prompts,
        cursor && { createdAt: cursor.sortValue, id: cursor.id },
        limit + 1,
      );
      const page = toPage(rows, limit);
      // A first page that holds every prompt is its own count.
      const total =
        !cursor && !page.hasNextPage ? page.rows.length : await ctx.repositories.prompts.count(project.id, prompts);
      return keysetPageOf(
        { rows: page.rows.map((prompt) => ({ ...prompt, filter })), hasNextPage: page.hasNextPage },
        total,
        (last) => encodeCursor({ sortValue: isoInstant(last.createdAt), id: last.id }, binding),
      );
    };
  },
});

/** A topic or a tag of the tracked prompts, with how many prompts carry it. */
function promptLabelField(name: 'topics' | 'tags', key: 'topic' | 'tag', what: string) {
  const LabelType = builder
    .objectRef<Record<string, string | number>>(key === 'topic' ? 'AiVisibilityTopic' : 'AiVisibilityTag')
    .implement({
      fields: (t) => ({
        [key]: t.string({ resolve: (row) => String(row[key]) }),
        prompts: t.int({ description: `Tracked prompts with this ${key}.`, resolve: (row) => Number(row.prompts) }),
      }),
    });
  builder.objectField(ProjectType, name, (t) =>
    t.field({
      type: [LabelType],
      description:
        `The ${what} of this project's tracked prompts, alphabetically, with how many ` +
        `prompts carry each; the first LIST_ROW_CAP (500).`,
      authScopes: { scope: 'ai_visibility:read' },
      extensions: GRAPH_ONLY,
      complexity: (_args, ctx) => bounded(ctx.config.LIST_ROW_CAP),
      resolve: (project, _args, ctx) => ctx.repositories.prompts[name](project.id, ctx.config.LIST_ROW_CAP),
    }),
  );
}

promptLabelField('topics', 'topic', 'topics');
promptLabelField('tags', 'tag', 'tags');

builder.objectField(PromptType, 'metrics', (t) =>
  t.field({
    type: [LocaleTotalsType],
    description:
      "This prompt's counters and rates per locale (byModel and competitors inside), pooled over its " +
      'runs in a range (default: the last 30 days).',
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: runFilterArgs(t.arg),
    complexity: (args) => bounded(localesOf(args)),
    resolve: (prompt, args, ctx) =>
      ctx.loaders.promptTotals.load({ parentId: prompt.id, filter: runFilterOf(args, ctx.now) }),
  }),
);
