import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { AiModelEnum } from '../../graphql/enums.js';
import { NodeInterface, registerNodeKind } from '../../graphql/node.js';
import { itemEnvelope, keysetPage, keysetPageOf } from '../../graphql/envelope.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { connectionType, pageArgFields, pageCost } from '../../graphql/connection.js';
import { ANSWER_TEXT_COST, bounded } from '../../graphql/cost.js';
import { cursorBinding, decodeCursor, encodeCursor, toPage } from '../../db/paging.js';
import { isCivilDate } from '../../dates/civil-date.js';
import { ApiError, withinBounds } from '../../errors/index.js';
import { boundedIntArg, boundedListCost } from '../../graphql/bounded-int.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { runFilterArgs } from '../common/run-filter-args.type.js';
import { rangeRuleText } from '../../dates/date-range.js';
import { ANSWERS_LIMIT, DOMAIN_RANGE, runFilterOf } from '../common/read-filters.js';
import { answerFilterOf } from './answer-filter.js';
import { PromptType } from '../prompts/prompt.type.js';
import { SENTIMENTS } from './runs.js';
import type { AnswerRow } from './answer-repository.js';
import { RUN_LIMITS } from '../../ingest/index.js';
import { MAX_ROWS } from '../common/read-rows.js';

export const SentimentEnum = builder.enumType('AiVisibilitySentiment', { values: SENTIMENTS });

const AnswerCompetitorType = builder
  .objectRef<AnswerRow['competitors'][number]>('AiVisibilityAnswerCompetitor')
  .implement({
    description: 'A tracked competitor as this answer mentions it.',
    fields: (t) => ({
      name: t.exposeString('name'),
      mentions: t.exposeInt('mentions'),
      position: t.exposeInt('position', {
        nullable: true,
        description: '1-based rank among the brands the answer lists, or null.',
      }),
    }),
  });

const CitationType = builder.objectRef<AnswerRow['citations'][number]>('AiVisibilityCitation').implement({
  description: "A source the answer cites, in the answer's order.",
  fields: (t) => ({
    position: t.exposeInt('position', { description: '1-based, in the order the answer cites.' }),
    url: t.exposeString('url'),
    domain: t.exposeString('domain', { description: 'The registrable domain (public suffix list), lower-case.' }),
    title: t.exposeString('title', { nullable: true }),
  }),
});

const RetrievedPageType = builder.objectRef<AnswerRow['retrieved'][number]>('AiVisibilityRetrievedPage').implement({
  description: "A page the engine read before answering, in the engine's order.",
  fields: (t) => ({
    url: t.exposeString('url', { description: 'As the engine gave it.' }),
    domain: t.exposeString('domain', { description: 'The registrable domain (public suffix list), lower-case.' }),
    title: t.exposeString('title', { nullable: true }),
    cited: t.exposeBoolean('cited', {
      description:
        'The answer cites the same URL (scheme and host lower-cased, fragment dropped); false: read, not cited.',
    }),
  }),
});

export const AnswerType = builder.objectRef<AnswerRow>('AiVisibilityAnswer').implement({
  description: 'One run: a prompt asked once to one model in one locale on one date, and what the model answered.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id'),
    projectId: t.exposeString('projectId'),
    promptId: t.exposeString('promptId'),
    prompt: t.exposeString('prompt', { description: "The prompt's text." }),
    date: t.expose('date', { type: 'Date' }),
    model: t.expose('model', { type: AiModelEnum }),
    locale: t.exposeString('locale'),
    text: t.exposeString('text', { description: "The model's answer.", complexity: ANSWER_TEXT_COST }),
    brandMentions: t.exposeInt('brandMentions'),
    totalMentions: t.exposeInt('totalMentions', { description: 'Mentions of all tracked brands.' }),
    position: t.exposeInt('position', {
      nullable: true,
      description: '1-based rank of the brand among the brands the answer lists, or null.',
    }),
    sentiment: t.expose('sentiment', { type: SentimentEnum, nullable: true }),
    competitors: t.expose('competitors', { type: [AnswerCompetitorType], complexity: bounded(MAX_ROWS.competitors) }),
    citations: t.expose('citations', { type: [CitationType], complexity: bounded(RUN_LIMITS.citationsPerAnswer) }),
    searchQueries: t.exposeStringList('searchQueries', {
      description: 'The web searches the engine ran before answering, in its order; empty when none were reported.',
    }),
    retrieved: t.expose('retrieved', {
      type: [RetrievedPageType],
      description: 'The pages the engine read, each marked cited or not; empty when none were reported.',
      complexity: bounded(RUN_LIMITS.retrievedPerRun),
    }),
  }),
});

registerNodeKind('answer', {
  typeName: 'AiVisibilityAnswer',
  load: (ctx, id) => ctx.loaders.answer.load(id),
});

const AnswerList = keysetPage(
  'AiVisibilityAnswerList',
  AnswerType,
  'answers',
  "A page of a project's answers, newest first (date, then id).",
);

const answerArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  promptId: arg({ type: 'PromptId', required: false, description: 'Only runs of this prompt.' }),
  mentioned: arg.boolean({
    required: false,
    description:
      'true: only answers that mention the brand; false: only those that do not; leave it out for every answer.',
  }),
  domain: arg.string({
    required: false,
    description:
      'Only answers citing this registrable domain (e.g. reddit.com). With domain, ' + rangeRuleText(DOMAIN_RANGE),
  }),
  limit: boundedIntArg(arg, ANSWERS_LIMIT, 'Answers per page'),
  cursor: arg.string({ required: false, description: 'meta.nextCursor of the previous page.' }),
  ...runFilterArgs(arg),
});

builder.queryField('aiVisibilityAnswers', (t) =>
  t.field({
    type: AnswerList,
    description: "A project's answers, newest first, in keyset pages: follow meta.nextCursor until it is null.",
    authScopes: { scope: 'ai_visibility:read' },
    args: { id: t.arg({ type: 'ProjectId', required: true }), ...answerArgs(t.arg) },
    complexity: (args) => boundedListCost(args.limit, ANSWERS_LIMIT),
    resolve: async (_root, args, ctx) => {
      const filter = answerFilterOf(args, ctx.now);
      const limit = withinBounds(args.limit, ANSWERS_LIMIT);
      // The filters as sent (not the resolved range: a page read after midnight keeps its cursor); limit may
      // change between pages.
      const binding = cursorBinding(
        ctx.workspace.workspaceId,
        args.id,
        args.dateFrom ?? null,
        args.dateTo ?? null,
        filter.model,
        filter.locale,
        filter.promptId,
        filter.mentioned,
        filter.domain,
      );
      const after = args.cursor ? decodeCursor(args.cursor, isCivilDate, 'cursor', binding) : null;
      const project = await ctx.repositories.projects.find(args.id);
      const [rows, total] = await Promise.all([
        ctx.repositories.answers.page(project.id, filter, after && { date: after.sortValue, id: after.id }, limit + 1),
        ctx.repositories.answers.count(project.id, filter),
      ]);
      return keysetPageOf(toPage(rows, limit), total, (row) =>
        encodeCursor({ sortValue: row.date, id: row.id }, binding),
      );
    },
  }),
);

const AnswerResult = itemEnvelope('AiVisibilityAnswerResult', AnswerType, 'One answer.');

builder.queryField('aiVisibilityAnswer', (t) =>
  t.field({
    type: AnswerResult,
    description: 'One answer of a project, with its citations.',
    authScopes: { scope: 'ai_visibility:read' },
    args: { id: t.arg({ type: 'ProjectId', required: true }), answerId: t.arg({ type: 'AnswerId', required: true }) },
    resolve: async (_root, args, ctx: GraphQLContext) => {
      const project = await ctx.repositories.projects.find(args.id);
      const answer = await ctx.repositories.answers.find(project.id, args.answerId);
      if (!answer) throw new ApiError('not_found', `No answer ${args.answerId} in this project.`);
      return { data: answer, meta: {} };
    },
  }),
);

const RunConnection = connectionType(
  'AiVisibilityRun',
  AnswerType,
  (answer) => ({ sortValue: answer.date, id: answer.id }),
  isCivilDate,
);

builder.objectField(PromptType, 'runs', (t) =>
  t.field({
    type: RunConnection.type,
    description: "This prompt's runs (answers), newest first; prompts asked together share one statement.",
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: { ...pageArgFields(t.arg), ...runFilterArgs(t.arg) },
    complexity: pageCost,
    resolve: (prompt, args, ctx) =>
      RunConnection.read(ctx, prompt.id, args, (page) =>
        ctx.loaders.runsOfPrompt.load({ parentId: prompt.id, args: { ...page, ...runFilterOf(args, ctx.now) } }),
      ),
  }),
);
