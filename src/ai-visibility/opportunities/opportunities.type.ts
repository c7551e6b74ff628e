import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { itemEnvelope } from '../../graphql/envelope.js';
import { COUNTED_BY_PARENT } from '../../graphql/cost.js';
import { DateRangeType } from '../../reports/report-data.type.js';
import type { DateRange } from '../../dates/civil-date.js';
import { withinBounds } from '../../errors/index.js';
import { boundedIntArg, boundedListCost } from '../../graphql/bounded-int.js';
import { runFilterArgs } from '../common/run-filter-args.type.js';
import { OPPORTUNITIES_LIMIT, runFilterOf, type RunFilterArgs } from '../common/read-filters.js';
import { projectRead } from '../projects/project-read.type.js';
import { OPPORTUNITY_KIND_CHOICES, opportunityKindsOf, queryOpportunities } from './opportunities.js';
import type { Opportunities, OpportunityKindChoice } from './opportunities.js';
import type { PageOpportunity, PromptOpportunity, SourceOpportunity } from './opportunity-scores.js';
import { localesOf } from '../common/read-rows.js';

const OpportunityKindEnum = builder.enumType('AiVisibilityOpportunityKind', { values: OPPORTUNITY_KIND_CHOICES });

const BestCompetitorType = builder
  .objectRef<PromptOpportunity['bestCompetitor']>('AiVisibilityBestCompetitor')
  .implement({
    fields: (t) => ({
      name: t.exposeString('name'),
      visibility: t.exposeFloat('visibility', {
        nullable: true,
        description: "Runs naming it / the prompt's runs in the locale.",
      }),
    }),
  });

const PromptOpportunityType = builder.objectRef<PromptOpportunity>('AiVisibilityPromptOpportunity').implement({
  description:
    'A tracked prompt where a competitor is visible in more runs than the brand, in one locale: ' +
    'write or improve the content that answers it.',
  fields: (t) => ({
    locale: t.exposeString('locale'),
    promptId: t.exposeString('promptId'),
    prompt: t.exposeString('prompt'),
    runs: t.exposeInt('runs', { description: "The prompt's runs in the locale over the range." }),
    brandVisibility: t.exposeFloat('brandVisibility', { nullable: true, description: 'Runs naming the brand / runs.' }),
    bestCompetitor: t.expose('bestCompetitor', {
      type: BestCompetitorType,
      description: 'The most visible competitor (ties by name).',
    }),
    score: t.exposeFloat('score', {
      description: 'runs × (bestCompetitor.visibility − brandVisibility): the runs at stake.',
    }),
  }),
});

const SourceOpportunityType = builder.objectRef<SourceOpportunity>('AiVisibilitySourceOpportunity').implement({
  description:
    'A site cited in answers that name a competitor and never in an answer that names the brand, in ' +
    'one locale: get the brand onto it.',
  fields: (t) => ({
    locale: t.exposeString('locale'),
    domain: t.exposeString('domain'),
    citations: t.exposeInt('citations', {
      description: 'Its citations in answers naming a competitor but not the brand.',
    }),
    answers: t.exposeInt('answers', { description: 'Those answers.' }),
    competitors: t.exposeStringList('competitors', {
      description: 'The competitors those answers name, in code-point order.',
    }),
    competitor: t.exposeString('competitor', {
      nullable: true,
      description: 'The competitor whose domains hold it, or null.',
    }),
    score: t.exposeFloat('score', { description: 'citations.' }),
  }),
});

const PageOpportunityType = builder.objectRef<PageOpportunity>('AiVisibilityPageOpportunity').implement({
  description:
    "One of the project's own pages the engines read and then did not cite, in one locale: make it worth citing.",
  fields: (t) => ({
    locale: t.exposeString('locale'),
    url: t.exposeString('url', { description: 'Normalised: scheme and host lower-cased, no fragment.' }),
    domain: t.exposeString('domain'),
    retrievals: t.exposeInt('retrievals', { description: 'Runs that read it.' }),
    retrievedNotCited: t.exposeInt('retrievedNotCited', { description: 'Of those, runs that did not cite it.' }),
    citedRate: t.exposeFloat('citedRate', {
      nullable: true,
      description: '(retrievals − retrievedNotCited) / retrievals.',
    }),
    score: t.exposeFloat('score', { description: 'retrievedNotCited.' }),
  }),
});

type OpportunitiesShape = Opportunities & { projectId: string; range: DateRange };

const OpportunitiesType = builder.objectRef<OpportunitiesShape>('AiVisibilityOpportunities').implement({
  description:
    'What to work on next, three lists; each per locale, by score descending, ties by the text ' +
    '(prompt, domain, URL) in code-point order.',
  fields: (t) => ({
    projectId: t.exposeString('projectId'),
    range: t.expose('range', { type: DateRangeType }),
    prompts: t.expose('prompts', { type: [PromptOpportunityType], complexity: COUNTED_BY_PARENT }),
    sources: t.expose('sources', { type: [SourceOpportunityType], complexity: COUNTED_BY_PARENT }),
    pages: t.expose('pages', { type: [PageOpportunityType], complexity: COUNTED_BY_PARENT }),
  }),
});

const OpportunitiesResult = itemEnvelope(
  'AiVisibilityOpportunitiesResult',
  OpportunitiesType,
  "A project's ranked opportunities.",
);

const opportunityArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  kind: arg({
    type: OpportunityKindEnum,
    required: false,
    defaultValue: 'all',
    description: 'all (default): the three lists; or only this list (the others come back empty).',
  }),
  limit: boundedIntArg(arg, OPPORTUNITIES_LIMIT, 'Items per list and locale'),
  ...runFilterArgs(arg),
});

/** `limit` items per list and locale: the answer counted that many times, each list once more. */
const opportunitiesCost = (args: { limit?: number | null; locale?: string | null }) =>
  boundedListCost(args.limit, OPPORTUNITIES_LIMIT, localesOf(args));

projectRead({
  root: 'aiVisibilityOpportunities',
  field: 'opportunities',
  description:
    'What to work on next: prompts where competitors are visible and the brand is not, sources that ' +
    'cite competitors but never the brand, and own pages read but not cited; ' +
    'each ranked per locale by a documented score.',
  what: 'ranked opportunities',
  type: OpportunitiesType,
  rootItemType: OpportunitiesResult,
  args: opportunityArgs,
  complexity: opportunitiesCost,
  read: (args: RunFilterArgs & { kind?: OpportunityKindChoice | null; limit?: number | null }, ctx) => {
    const filter = runFilterOf(args, ctx.now);
    const limit = withinBounds(args.limit, OPPORTUNITIES_LIMIT);
    const kinds = opportunityKindsOf(args.kind);
    return async (project): Promise<OpportunitiesShape> => ({
      projectId: project.id,
      range: filter.range,
      ...(await queryOpportunities(ctx.workspace, project, filter, kinds, limit)),
    });
  },
});
