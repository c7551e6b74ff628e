import { builder } from '../graphql/builder.js';
import { AiModelEnum } from '../graphql/enums.js';
import { NodeInterface, registerNodeKind } from '../graphql/node.js';
import { connectionType, pageArgFields, pageCost } from '../graphql/connection.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { ProjectType } from '../ai-visibility/projects/project.type.js';
import type { SignalRow } from './repository.js';
import { RULE_SPECS, SIGNAL_KINDS, thresholdProblem, type SignalRule } from './rules.js';
import { MAX_PREVIEW_FIRINGS, previewRule, type RulePreview } from './rule-preview.js';
import { bounded } from '../graphql/cost.js';
import { invalidParameter } from '../errors/index.js';
import { SCAN_RANGE } from '../ai-visibility/index.js';
import { defaultedRange, rangeRuleText, type RangeRule } from '../dates/date-range.js';
import { isInstant } from '../dates/instant.js';

export const SignalType = builder.objectRef<SignalRow>('Signal').implement({
  description: 'A signal rule that fired on a scan: what changed, for which model and locale.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id'),
    projectId: t.exposeString('projectId'),
    scanId: t.exposeString('scanId', { nullable: true }),
    kind: t.exposeString('kind', { description: 'The rule that fired, e.g. visibility_drop.' }),
    model: t.expose('model', { type: AiModelEnum }),
    locale: t.exposeString('locale'),
    details: t.expose('details', {
      type: 'JSONObject',
      description: "The numbers before and after, and the rule's threshold.",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    acknowledgedAt: t.expose('acknowledgedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When someone marked it as dealt with; null while it is news.',
    }),
  }),
});

registerNodeKind('signal', {
  typeName: 'Signal',
  load: (ctx, id) => ctx.loaders.signal.load(id),
});

const SignalConnection = connectionType(
  'Signal',
  SignalType,
  (signal) => ({ sortValue: signal.createdAt.toISOString(), id: signal.id }),
  isInstant,
);

builder.objectField(ProjectType, 'signals', (t) =>
  t.field({
    type: SignalConnection.type,
    description: "This project's signals, newest first.",
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: {
      ...pageArgFields(t.arg),
      dateFrom: t.arg({ type: 'Date', required: false, description: 'First UTC day of createdAt (inclusive).' }),
      dateTo: t.arg({ type: 'Date', required: false, description: 'Last UTC day of createdAt (inclusive).' }),
      kind: t.arg.string({ required: false }),
    },
    complexity: pageCost,
    resolve: (project, args, ctx) =>
      SignalConnection.read(ctx, project.id, args, (page) =>
        ctx.loaders.signalsOfProject.load({
          parentId: project.id,
          args: { ...page, dateFrom: args.dateFrom ?? null, dateTo: args.dateTo ?? null, kind: args.kind ?? null },
        }),
      ),
  }),
);

const SignalKindEnum = builder.enumType('SignalKind', { values: SIGNAL_KINDS });

const SignalRuleType = builder.objectRef<SignalRule>('SignalRule').implement({
  description: 'A rule run on every new or changed scan against the previous scan of the same model and locale.',
  fields: (t) => ({
    kind: t.expose('kind', { type: SignalKindEnum }),
    threshold: t.exposeFloat('threshold'),
    enabled: t.exposeBoolean('enabled'),
    defaultThreshold: t.float({ resolve: (rule) => RULE_SPECS[rule.kind].defaultThreshold }),
    meaning: t.string({
      description: 'When the rule fires, in words.',
      resolve: (rule) => RULE_SPECS[rule.kind].meaning,
    }),
  }),
});

builder.objectField(ProjectType, 'signalRules', (t) =>
  t.field({
    type: [SignalRuleType],
    description: 'Every rule kind with its threshold (the default unless the project set one).',
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    resolve: (project, _args, ctx) => ctx.loaders.signalRulesOfProject.load(project.id),
  }),
);

const RuleFiringType = builder.objectRef<RulePreview['firings'][number]>('SignalRuleFiring').implement({
  description: 'A scan on which the rule would have fired.',
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    model: t.exposeString('model'),
    locale: t.exposeString('locale'),
    metric: t.exposeString('metric'),
    before: t.exposeFloat('before'),
    after: t.exposeFloat('after'),
    competitor: t.exposeString('competitor', { nullable: true }),
  }),
});

const RulePreviewType = builder.objectRef<RulePreview>('SignalRulePreview').implement({
  description: 'How often a rule at a threshold would have fired over past scans (nothing is stored).',
  fields: (t) => ({
    kind: t.expose('kind', { type: SignalKindEnum }),
    threshold: t.exposeFloat('threshold'),
    scansCompared: t.exposeInt('scansCompared', {
      description: 'Scans in the range that had a previous scan of their model and locale.',
    }),
    fired: t.exposeInt('fired'),
    firings: t.expose('firings', {
      type: [RuleFiringType],
      description: `The most recent first, at most ${MAX_PREVIEW_FIRINGS}.`,
      complexity: bounded(MAX_PREVIEW_FIRINGS),
    }),
  }),
});

/** A preview reads scan pairs: as wide as any read of scans, over the last 90 days unless told. */
const PREVIEW_RANGE: RangeRule = { defaultDays: 90, maxDays: SCAN_RANGE.maxDays };

builder.objectField(ProjectType, 'rulePreview', (t) =>
  t.field({
    type: RulePreviewType,
    description:
      'Tries a rule and threshold on the scans of a range (default: the last 90 days) without changing anything.',
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: {
      kind: t.arg({ type: SignalKindEnum, required: true }),
      threshold: t.arg.float({ required: false, description: "Default: the kind's default threshold." }),
      dateFrom: t.arg({
        type: 'Date',
        required: false,
        description: `First day (inclusive); default: 89 days before dateTo. ${rangeRuleText(PREVIEW_RANGE)}`,
      }),
      dateTo: t.arg({ type: 'Date', required: false, description: 'Last day (inclusive); default: today (UTC).' }),
    },
    resolve: (project, args, ctx) => {
      const threshold = args.threshold ?? RULE_SPECS[args.kind].defaultThreshold;
      const problem = thresholdProblem(args.kind, threshold);
      if (problem) throw invalidParameter('threshold', `${problem}.`);
      return previewRule(
        ctx.workspace,
        project.id,
        { kind: args.kind, threshold },
        defaultedRange(args.dateFrom, args.dateTo, ctx.now, PREVIEW_RANGE),
      );
    },
  }),
);
