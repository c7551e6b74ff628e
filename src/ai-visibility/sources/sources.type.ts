import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { firstPageOf, ListMeta, type ListMetaShape } from '../../graphql/envelope.js';
import { COUNTED_BY_PARENT } from '../../graphql/cost.js';
import { boundedIntArg, boundedListCost } from '../../graphql/bounded-int.js';
import { withinBounds } from '../../errors/index.js';
import { DateRangeType } from '../../reports/report-data.type.js';
import type { DateRange } from '../../dates/civil-date.js';
import { ownershipOf } from './domains.js';
import { runFilterArgs } from '../common/run-filter-args.type.js';
import { ROWS_PER_LOCALE_LIMIT } from '../common/read-filters.js';
import { projectRead } from '../projects/project-read.type.js';
import { sourceRow, type SourceRow } from './source-shares.js';
import { querySources, sourceFilterOf, SOURCE_GROUPINGS, type SourceArgs } from './sources.js';
import { localesOf } from '../common/read-rows.js';

export const SourceGroupingEnum = builder.enumType('AiVisibilitySourceGrouping', { values: SOURCE_GROUPINGS });

const SourceRowType = builder.objectRef<SourceRow>('AiVisibilitySource').implement({
  description:
    'A cited or read domain (or URL) in one locale over the range, pooled: sums first, one division, per locale.',
  fields: (t) => ({
    locale: t.exposeString('locale'),
    domain: t.exposeString('domain'),
    url: t.exposeString('url', { nullable: true, description: 'Set when grouped by URL.' }),
    citations: t.exposeInt('citations', { description: 'Citation entries pointing here.' }),
    answersCiting: t.exposeInt('answersCiting', { description: 'Distinct answers citing it.' }),
    citationShare: t.exposeFloat('citationShare', {
      nullable: true,
      description: 'citations / all citations of the locale in the range.',
    }),
    answerShare: t.exposeFloat('answerShare', {
      nullable: true,
      description: 'answersCiting / runs of the locale in the range.',
    }),
    retrievals: t.exposeInt('retrievals', {
      description: 'Runs that read it (a page of the domain, or this URL) before answering.',
    }),
    retrievedNotCited: t.exposeInt('retrievedNotCited', {
      description: 'Of those runs, the ones that did not cite it.',
    }),
    owned: t.exposeBoolean('owned', { description: "The domain is one of the project's own domains." }),
    competitor: t.exposeString('competitor', {
      nullable: true,
      description: 'The competitor whose domains hold it, or null.',
    }),
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

const SourcesEnvelope = builder
  .objectRef<{ data: SourcesShape; meta: ListMetaShape }>('AiVisibilitySourcesResult')
  .implement({
    fields: (t) => ({
      data: t.expose('data', { type: SourcesType }),
      meta: t.expose('meta', {
        type: ListMeta,
        description: 'total: rows of every locale before the per-locale limit.',
      }),
    }),
  });

const sourceArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  promptId: arg({ type: 'PromptId', required: false, description: 'Only citations in runs of this prompt.' }),
  groupBy: arg({
    type: SourceGroupingEnum,
    required: false,
    defaultValue: 'domain',
    description: 'One row per domain (default) or per URL.',
  }),
  owned: arg.boolean({
    required: false,
    defaultValue: false,
    description: "true: only the project's own domains; false (default): every source.",
  }),
  limit: boundedIntArg(arg, ROWS_PER_LOCALE_LIMIT, 'Rows per locale'),
  ...runFilterArgs(arg),
});

/** `limit` rows per locale: the answer counted that many times, its `rows` once more. */
const sourcesCost = (args: { limit?: number | null; locale?: string | null }) =>
  boundedListCost(args.limit, ROWS_PER_LOCALE_LIMIT, localesOf(args));

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
    const limit = withinBounds(args.limit, ROWS_PER_LOCALE_LIMIT);
    return async (project) => {
      const { rows, total } = await querySources(ctx.workspace, project, filter, limit);
      const ownership = ownershipOf(project);
      const page = firstPageOf(
        rows.map((sums) => sourceRow(sums, ownership)),
        total,
      );
      return { data: { projectId: project.id, range: filter.range, rows: page.data }, meta: page.meta };
    };
  },
});
