// A project's citation gaps on the graph: the sites most cited in answers that name a competitor but
// not the brand, marked owned or a competitor's like the sources.
import { builder } from '../../graphql/builder.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { boundedIntArg, boundedListCost } from '../../graphql/bounded-int.js';
import { withinBounds } from '../../errors/index.js';
import { runFilterArgs } from '../common/run-filter-args.type.js';
import { ProjectType } from '../projects/project.type.js';
import { CITATION_GAPS_LIMIT, runFilterOf } from '../common/read-filters.js';
import { localesOf } from '../common/read-rows.js';
import { ownershipOf } from '../sources/domains.js';
import { queryCitationGaps, type CitationGapRow } from './citation-gaps.js';

const CitationGapType = builder
  .objectRef<CitationGapRow & { owned: boolean; competitor: string | null }>('AiVisibilityCitationGap')
  .implement({
    description: 'A site cited in answers that name a competitor but not the brand, in one locale over the range.',
    fields: (t) => ({
      locale: t.exposeString('locale'),
      domain: t.exposeString('domain'),
      answers: t.exposeInt('answers', { description: 'Answers naming a competitor but not the brand that cite it.' }),
      citations: t.exposeInt('citations'),
      competitorsNamed: t.exposeStringList('competitorsNamed', { description: 'The competitors those answers name.' }),
      owned: t.exposeBoolean('owned', {
        description: "One of the project's own domains (cited, yet the brand goes unnamed).",
      }),
      competitor: t.exposeString('competitor', {
        nullable: true,
        description: 'The competitor whose domains hold it, or null.',
      }),
    }),
  });

builder.objectField(ProjectType, 'citationGaps', (t) =>
  t.field({
    type: [CitationGapType],
    description: 'Per locale, the sites most cited in answers that name a competitor but not the brand.',
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: { limit: boundedIntArg(t.arg, CITATION_GAPS_LIMIT, 'Rows per locale'), ...runFilterArgs(t.arg) },
    complexity: (args) => boundedListCost(args.limit, CITATION_GAPS_LIMIT, localesOf(args)),
    resolve: async (project, args, ctx) => {
      const ownership = ownershipOf(project);
      const limit = withinBounds(args.limit, CITATION_GAPS_LIMIT);
      const rows = await queryCitationGaps(ctx.workspace, project.id, runFilterOf(args, ctx.now), limit);
      return rows.map((row) => ({
        ...row,
        owned: ownership.owned.has(row.domain),
        competitor: ownership.competitorOf.get(row.domain) ?? null,
      }));
    },
  }),
);
