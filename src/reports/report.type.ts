import type { ObjectFieldBuilder } from '@pothos/core';
import type { ReportRow } from './repository.js';
import { builder } from '../graphql/builder.js';
import {
  ComparePresetEnum,
  DatePresetEnum,
  GranularityEnum,
  MetricEnum,
  ProviderEnum,
  WidgetTypeEnum,
} from '../graphql/enums.js';
import { cappedList, emptyMeta, itemEnvelope, listEnvelope } from '../graphql/envelope.js';
import { NodeInterface, registerNodeKind } from '../graphql/node.js';
import { GRAPH_ONLY } from '../graphql/graph-only.js';
import { ClientType } from '../clients/client.type.js';
import { DEFINITION_LIMITS, type ReportDefinition, type Widget } from './definition.js';
import { bounded } from '../graphql/cost.js';
import type { ReportSummaryRow } from './repository.js';

// Fields read straight off the parsed definition are exposed, not resolved: graphql-jit reads an
// exposed property in place, where a resolver call builds its resolve info (a widget list
// allocated ~20 KB a request that way).
const WidgetType = builder.objectRef<Widget>('Widget').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    type: t.expose('type', { type: WidgetTypeEnum }),
    title: t.exposeString('title'),
    provider: t.expose('provider', { type: ProviderEnum }),
    metrics: t.expose('metrics', { type: [MetricEnum] }),
    dimension: t.exposeString('dimension', { nullable: true }),
    granularity: t.expose('granularity', { type: GranularityEnum, nullable: true }),
    limit: t.exposeInt('limit', { nullable: true }),
  }),
});

const DateConfigType = builder.objectRef<ReportDefinition['dateConfig']>('DateConfig').implement({
  fields: (t) => ({
    datePreset: t.expose('datePreset', { type: DatePresetEnum }),
    comparePreset: t.expose('comparePreset', { type: ComparePresetEnum }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone in which presets are resolved.' }),
  }),
});

const DefinitionType = builder.objectRef<ReportDefinition>('ReportDefinition').implement({
  fields: (t) => ({
    widgets: t.expose('widgets', { type: [WidgetType], complexity: bounded(DEFINITION_LIMITS.widgets) }),
    dateConfig: t.expose('dateConfig', { type: DateConfigType }),
  }),
});

/** What a report and its summary both show. */
const summaryFields = (t: ObjectFieldBuilder<typeof builder.$inferSchemaTypes, ReportSummaryRow>) => ({
  id: t.exposeID('id'),
  name: t.exposeString('name'),
  clientId: t.exposeString('clientId', { nullable: true }),
  createdAt: t.expose('createdAt', { type: 'DateTime' }),
  updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
});

export const ReportSummaryType = builder.objectRef<ReportSummaryRow>('ReportSummary').implement({
  description: 'A report of the workspace, without its definition.',
  fields: summaryFields,
});

export const ReportType = builder.objectRef<ReportRow>('Report').implement({
  description: 'A report with its definition: widgets and date configuration.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    ...summaryFields(t),
    definition: t.expose('definition', { type: DefinitionType }),
  }),
});

registerNodeKind('report', {
  typeName: 'Report',
  load: (ctx, id) => ctx.loaders.report.load(id),
});

export const ReportList = listEnvelope('ReportList', ReportSummaryType, "The workspace's reports, newest first.");
const ReportItem = itemEnvelope('ReportItem', ReportType, 'One report.');

builder.queryFields((t) => ({
  reports: t.field({
    type: ReportList,
    description: "The workspace's reports, newest first; their ids are used by report and reportData.",
    authScopes: { scope: 'reports:read' },
    args: { clientId: t.arg({ type: 'ClientId', required: false, description: 'Only reports of this client.' }) },
    resolve: (_root, args, ctx) =>
      cappedList(
        ctx.config.LIST_ROW_CAP,
        (take) => ctx.repositories.reports.list(args.clientId ?? null, take),
        () => ctx.repositories.reports.count(args.clientId ?? null),
      ),
  }),
  report: t.field({
    type: ReportItem,
    description: "One report's definition: widgets and date configuration.",
    authScopes: { scope: 'reports:read' },
    args: { id: t.arg({ type: 'ReportId', required: true }) },
    resolve: async (_root, args, ctx) => ({ data: await ctx.repositories.reports.find(args.id), meta: emptyMeta() }),
  }),
}));

// The graph around reports: a client's reports, a report's client.
builder.objectField(ClientType, 'reports', (t) =>
  t.field({
    type: ReportList,
    description: "This client's reports, newest first, capped like the reports list.",
    authScopes: { scope: 'reports:read' },
    extensions: GRAPH_ONLY,
    resolve: (client, _args, ctx) => ctx.loaders.reportsOfClient.load(client.id),
  }),
);

for (const variant of [ReportSummaryType, ReportType]) {
  builder.objectField(variant, 'client', (t) =>
    t.field({
      type: ClientType,
      nullable: true,
      description: 'The client this report belongs to; null for a workspace-wide report.',
      authScopes: { scope: 'clients:read' },
      extensions: GRAPH_ONLY,
      resolve: (report, _args, ctx) => (report.clientId ? ctx.loaders.client.load(report.clientId) : null),
    }),
  );
}
