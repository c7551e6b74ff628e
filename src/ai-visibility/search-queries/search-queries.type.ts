import { builder } from '../../graphql/builder.js';
import { firstPageOf, ListMeta, type ListMetaShape } from '../../graphql/envelope.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { COUNTED_BY_PARENT } from '../../graphql/cost.js';
import { runFilterArgs } from '../common/run-filter-args.type.js';
import { ROWS_PER_LOCALE_LIMIT, runFilterOf } from '../common/read-filters.js';
import { boundedIntArg, boundedListCost } from '../../graphql/bounded-int.js';
import { withinBounds } from '../../errors/index.js';
import { PromptType } from '../prompts/prompt.type.js';
import { querySearchQueries, searchQueryFilterOf, type SearchQueryRow } from './search-queries.js';
import { localesOf } from '../common/read-rows.js';

const SearchQueryType = builder.objectRef<SearchQueryRow>('AiVisibilitySearchQuery').implement({
  description:
    'A web search the engines ran before answering, in one locale over the range, pooled: sums ' +
    'first, one division, per locale.',
  fields: (t) => ({
    locale: t.exposeString('locale'),
    query: t.exposeString('query', { description: 'The query trimmed and lower-cased (how queries are compared).' }),
    runs: t.exposeInt('runs', { description: 'Runs that ran it.' }),
    promptCount: t.exposeInt('promptCount', { description: 'Distinct prompts of those runs.' }),
    visibilityCount: t.exposeInt('visibilityCount', { description: 'Of those runs, the ones that mention the brand.' }),
    visibility: t.exposeFloat('visibility', { nullable: true, description: 'visibilityCount / runs.' }),
  }),
});

const SearchQueriesResult = builder
  .objectRef<{ data: SearchQueryRow[]; meta: ListMetaShape }>('AiVisibilitySearchQueriesResult')
  .implement({
    fields: (t) => ({
      data: t.expose('data', {
        type: [SearchQueryType],
        description: 'By locale, then runs descending, then query (by code point); at most `limit` per locale.',
        complexity: COUNTED_BY_PARENT,
      }),
      meta: t.expose('meta', {
        type: ListMeta,
        description: 'total: rows of every locale before the per-locale limit.',
      }),
    }),
  });

const limitArg = (arg: Parameters<typeof runFilterArgs>[0]) =>
  boundedIntArg(arg, ROWS_PER_LOCALE_LIMIT, 'Rows per locale');
/** `limit` rows per locale: the root field's answer counted that many times, its `data` once more. */
const searchQueriesCost = (args: { limit?: number | null; locale?: string | null }) =>
  boundedListCost(args.limit, ROWS_PER_LOCALE_LIMIT, localesOf(args));

builder.queryField('aiVisibilitySearchQueries', (t) =>
  t.field({
    type: SearchQueriesResult,
    description:
      "The web searches the engines ran for the project's prompts: per locale, each query with the " +
      "runs that ran it, their prompts and the brand's visibility in them.",
    authScopes: { scope: 'ai_visibility:read' },
    args: {
      id: t.arg({ type: 'ProjectId', required: true }),
      promptId: t.arg({ type: 'PromptId', required: false, description: 'Only runs of this prompt.' }),
      limit: limitArg(t.arg),
      ...runFilterArgs(t.arg),
    },
    complexity: searchQueriesCost,
    resolve: async (_root, args, ctx) => {
      const filter = searchQueryFilterOf(args, ctx.now);
      const limit = withinBounds(args.limit, ROWS_PER_LOCALE_LIMIT);
      const project = await ctx.repositories.projects.find(args.id);
      const { rows, total } = await querySearchQueries(ctx.workspace, project.id, filter, limit);
      return firstPageOf(rows, total);
    },
  }),
);

builder.objectField(PromptType, 'searchQueries', (t) =>
  t.field({
    type: [SearchQueryType],
    description:
      'The web searches the engines ran for this prompt, per locale, most run first, with the ' +
      "brand's visibility in those runs (default: the last 30 days).",
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: { limit: limitArg(t.arg), ...runFilterArgs(t.arg) },
    complexity: searchQueriesCost,
    resolve: (prompt, args, ctx) =>
      ctx.loaders.searchQueriesOfPrompt.load({
        parentId: prompt.id,
        projectId: prompt.projectId,
        filter: runFilterOf(args, ctx.now),
        perLocale: withinBounds(args.limit, ROWS_PER_LOCALE_LIMIT),
      }),
  }),
);
