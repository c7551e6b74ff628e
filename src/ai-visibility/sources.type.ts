import type { ArgBuilder } from '@pothos/core';
import { builder } from '../graphql/builder.js';
import { ListMeta, type ListMetaShape } from '../graphql/envelope.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { COUNTED_BY_PARENT, sizedList } from '../graphql/cost.js';
import { DateRangeType } from '../reports/report-data.type.js';
import type { DateRange } from '../dates/civil-date.js';
import { ownershipOf } from './domains.js';
import { runFilterArgs } from './metrics.type.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, pageLimitOf, runFilterOf, sourceFilterOf, type SourceArgs } from './read-filters.js';
import { queryCitationGaps, type CitationGapRow } from './citation-gaps.js';
import { ProjectType } from './project.type.js';
import { projectRead } from './project-read.type.js';
import { sourceRow, type SourceRow } from './source-shares.js';
import { querySources, SOURCE_GROUPINGS } from './sources.js';
import { localesOf } from './read-rows.js';

export const SourceGroupingEnum = builder.enumType('AiVisibilitySourceGrouping', { values: SOURCE_GROUPINGS });

const SourceRowType = builder.objectRef<SourceRow>('AiVisibilitySource').implement({
  description: 'A cited or read domain (or URL) in one locale over the range, pooled: sums first, one division, per locale.',
  fields: (t) => ({
    locale: t.exposeString('locale'),
    domain: t.exposeString('domain'),
    url: t.exposeString('url', { nullable: true, description: 'Set when grouped by URL.' }),
    citations: t.exposeInt('citations', { description: 'Citation entries pointing here.' }),
    answersCiting: t.exposeInt('answersCiting', { description: 'Distinct answers citing it.' }),
    citationShare: t.exposeFloat('citationShare', { nullable: true, description: 'citations / all citations of the locale in the range.' }),
    answerShare: t.exposeFloat('answerShare', { nullable: true, description: 'answersCiting / runs of the locale in the range.' }),
    retrievals: t.exposeInt('retrievals', { description: 'Runs that read it (a page of the domain, or this URL) before answering.' }),
    retrievedNotCited: t.exposeInt('retrievedNotCited', { description: 'Of those runs, the ones that did not cite it.' }),
    owned: t.exposeBoolean('owned', { description: "The domain is one of the project's own domains." }),
    competitor: t.exposeString('competitor', { nullable: true, description: 'The competitor whose domains hold it, or null.' }),
  }),
});

interface SourcesShape {
  projectId: string;
  range: DateRange;
  rows: SourceRow[];
}

const SourcesType = builder.objectRef<SourcesShape>('AiVisibilitySources').implement({
  fields: (t) => ({
    projectId: t.exposeString('projectId'),
    range: t.expose('range', { type: DateRangeType }),
    rows: t.expose('rows', {
      type: [SourceRowType],
      description: 'By locale, then citations descending, then domain; at most `limit` per locale.',
      complexity: COUNTED_BY_PARENT,
    }),
  }),
});

const SourcesEnvelope = builder.objectRef<{ data: SourcesShape; meta: ListMetaShape }>('AiVisibilitySourcesResult').implement({
  fields: (t) => ({
    data: t.expose('data', { type: SourcesType }),
    meta: t.expose('meta', { type: ListMeta, description: 'total: rows of every locale before the per-locale limit.' }),
  }),
});


const sourceArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  promptId: arg({ type: 'PromptId', required: false, description: 'Only citations in runs of this prompt.' }),
  groupBy: arg({ type: SourceGroupingEnum, required: false, description: 'domain (default) or url.' }),
  owned: arg.boolean({ required: false, description: "true: only the project's own domains (default false: every source)." }),
  limit: arg.int({ required: false, description: `Rows per locale, 1–${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT}).` }),
  ...runFilterArgs(arg),
});

/** `limit` rows per locale: the answer counted that many times, its `rows` once more. */
const sourcesCost = (args: { limit?: number | null; locale?: string | null }) =>
  sizedList(args.limit, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, localesOf(args));

projectRead({
  root: 'aiVisibilitySources',
  field: 'sources',
  description: 'Who the assistants cite: per locale, each domain (or URL) with its citation and answer shares.',
  what: 'cited sources',
  type: SourcesEnvelope,
  args: sourceArgs,
  complexity: sourcesCost,
  read: (args: SourceArgs & { limit?: number | null }, ctx) => {
    const filter = sourceFilterOf(args, ctx.now);
    const limit = pageLimitOf(args.limit);
    return async (project) => {
      const { rows, total } = await querySources(ctx.workspace, project, filter, limit);
      const ownership = ownershipOf(project);
      return { data: { projectId: project.id, range: filter.range, rows: rows.map((sums) => sourceRow(sums, ownership)) }, meta: { total, truncated: total > rows.length } };
    };
  },
});

const CitationGapType = builder.objectRef<CitationGapRow & { owned: boolean; competitor: string | null }>('AiVisibilityCitationGap').implement({
  description: 'A site cited in answers that name a competitor but not the brand, in one locale over the range.',
  fields: (t) => ({
    locale: t.exposeString('locale'),
    domain: t.exposeString('domain'),
    answers: t.exposeInt('answers', { description: 'Answers naming a competitor but not the brand that cite it.' }),
    citations: t.exposeInt('citations'),
    competitorsNamed: t.exposeStringList('competitorsNamed', { description: 'The competitors those answers name.' }),
    owned: t.exposeBoolean('owned', { description: "One of the project's own domains (cited, yet the brand goes unnamed)." }),
    competitor: t.exposeString('competitor', { nullable: true, description: 'The competitor whose domains hold it, or null.' }),
  }),
});

builder.objectField(ProjectType, 'citationGaps', (t) =>
  t.field({
    type: [CitationGapType],
    description: 'Per locale, the sites most cited in answers that name a competitor but not the brand.',
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: { limit: t.arg.int({ required: false, description: `Rows per locale, 1–${MAX_PAGE_LIMIT} (default 20).` }), ...runFilterArgs(t.arg) },
    complexity: (args) => sizedList(args.limit, 20, MAX_PAGE_LIMIT, localesOf(args)),
    resolve: async (project, args, ctx) => {
      const ownership = ownershipOf(project);
      const rows = await queryCitationGaps(ctx.workspace, project.id, runFilterOf(args, ctx.now), pageLimitOf(args.limit ?? 20));
      return rows.map((row) => ({ ...row, owned: ownership.owned.has(row.domain), competitor: ownership.competitorOf.get(row.domain) ?? null }));
    },
  }),
);
