// What can be measured: providers with their metrics (unit, base or derived) and dimensions,
// the date presets, and the AI-visibility models and rates — for people and models building
// reports (MCP's describe_metrics).
import { builder } from '../graphql/builder.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { AI_MODELS } from '../ai-visibility/index.js';
import { catalog, METRIC_DIRECTIONS, PROVIDERS, type MetricDirection, type ProviderId } from './catalog.js';
import { COMPARE_PRESETS, DATE_PRESETS } from './date-presets.js';

interface MetricShape {
  id: string;
  unit: string;
  kind: 'base' | 'derived';
  direction: MetricDirection;
  formula: string | null;
}

const MetricDirectionEnum = builder.enumType('MetricDirection', {
  description:
    'Which way a change is good: higher, lower (a cost per click, a position: 1 is first) or neutral (spend).',
  values: METRIC_DIRECTIONS,
});

const MetricInfo = builder.objectRef<MetricShape>('CatalogMetric').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    unit: t.exposeString('unit', { description: 'count, currency, percent (0..1) or decimal.' }),
    kind: t.exposeString('kind', {
      description: 'base: summed per day; derived: a ratio of base metrics over the whole range.',
    }),
    direction: t.expose('direction', { type: MetricDirectionEnum }),
    formula: t.exposeString('formula', { nullable: true }),
  }),
});

const ProviderInfo = builder.objectRef<ProviderId>('CatalogProvider').implement({
  fields: (t) => ({
    id: t.string({ resolve: (id) => id }),
    label: t.string({ resolve: (id) => catalog[id].label }),
    metrics: t.field({
      type: [MetricInfo],
      resolve: (id) =>
        Object.entries(catalog[id].metrics).map(([metric, definition]) => ({
          id: metric,
          unit: definition.unit,
          kind: definition.kind,
          direction: definition.direction,
          formula:
            definition.kind === 'derived'
              ? `${definition.numerator} / ${definition.denominator}` +
                (definition.multiplier ? ` × ${definition.multiplier}` : '')
              : null,
        })),
    }),
    dimensions: t.stringList({ resolve: (id) => [...catalog[id].dimensions] }),
  }),
});

const AI_RATES: { id: string; meaning: string; direction: MetricDirection }[] = [
  {
    id: 'visibility',
    direction: 'higher',
    meaning: 'visibilityCount / totalRuns: share of runs in which the brand appears (0..1)',
  },
  {
    id: 'shareOfVoice',
    direction: 'higher',
    meaning: "mentionCount / totalMentionCount: the brand's share of all brand mentions (0..1)",
  },
  { id: 'averagePosition', meaning: 'positionSum / positionedCount: 1 = named first', direction: 'lower' },
  { id: 'sentiment', meaning: '(positive − negative) / classified mentions (−1..1)', direction: 'higher' },
];

const AiRateInfo = builder.objectRef<(typeof AI_RATES)[number]>('CatalogAiRate').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    meaning: t.exposeString('meaning'),
    direction: t.expose('direction', { type: MetricDirectionEnum }),
  }),
});

const CatalogType = builder.objectRef<object>('MetricCatalog').implement({
  description: 'Everything a report or an AI-visibility question can ask for.',
  fields: (t) => ({
    providers: t.field({ type: [ProviderInfo], resolve: () => [...PROVIDERS] }),
    datePresets: t.stringList({ resolve: () => [...DATE_PRESETS] }),
    comparePresets: t.stringList({ resolve: () => [...COMPARE_PRESETS] }),
    aiModels: t.stringList({ resolve: () => [...AI_MODELS] }),
    aiRates: t.field({
      type: [AiRateInfo],
      description: 'Pooled per locale: sums of counts over sums of runs, never means of rates.',
      resolve: () => AI_RATES,
    }),
  }),
});

builder.queryField('metricCatalog', (t) =>
  t.field({
    type: CatalogType,
    description: 'Providers, metrics, dimensions, units and presets.',
    extensions: GRAPH_ONLY,
    resolve: () => ({}),
  }),
);
