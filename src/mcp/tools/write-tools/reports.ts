// Write tools of the Reports toolset: reports and their widgets, validated like the CLI.
import { z } from 'zod/v4';
import { actorOf, declare, inProse, type WriteTool } from './declare.js';
import {
  addWidget,
  archiveReport,
  createReport,
  duplicateReport,
  removeWidget,
  updateReport,
  updateReportWidgets,
} from '../../../reports/index.js';

const widgetSchema = () =>
  z.object({
    id: z.string().describe('a-z, 0-9, _ and -, unique in the report'),
    type: z.enum(['kpi', 'line_chart', 'bar_chart', 'table']),
    title: z.string(),
    provider: z.string().describe('a provider of describe_metrics (get_report shows examples)'),
    metrics: z.array(z.string()).describe('metric ids of that provider'),
    dimension: z.string().optional().describe('tables: a dimension of the provider'),
    granularity: z.enum(['day', 'week', 'month']).optional(),
    limit: z.number().int().optional(),
  });
const dateConfig = z.object({
  datePreset: z.string(),
  comparePreset: z.string(),
  timezone: z.string().optional().describe("IANA; defaults to the workspace's"),
});
const definitionSchema = () => z.object({ widgets: z.array(widget), dateConfig });

// A widget's JSON Schema would weigh on each tool that takes one, on every tools/list:
// create_report advertises it as one line, the other tools of the toolset (always listed with it)
// point there; zod checks every field everywhere.
const widget = inProse(
  widgetSchema(),
  'A widget: {id (a-z, 0-9, _, -; unique in the report), type: kpi|line_chart|bar_chart|table, ' +
    'title, provider, metrics: [metric ids of the provider], dimension? (tables), granularity?: ' +
    'day|week|month, limit?}. describe_metrics lists providers, metrics and dimensions.',
);
const widgetAsInCreateReport = inProse(widgetSchema(), "A widget, shaped as in create_report's definition.widgets.");
const definition = definitionSchema();
const definitionAsInCreateReport = inProse(
  definitionSchema(),
  "A whole definition {widgets, dateConfig}, shaped as create_report's.",
);

export const REPORT_WRITE_TOOLS: WriteTool[] = [
  declare({
    name: 'create_report',
    toolset: 'reports',
    destructive: false,
    idempotent: false,
    title: 'Create report',
    description:
      'Create a report from widgets and a date configuration (datePreset, comparePreset); validated like the CLI.',
    input: { name: z.string(), clientId: z.string().nullable().optional(), definition },
    output: { report: 'object' },
    run: async (deps, args) => ({
      report: await createReport(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        clientId: args.clientId ?? null,
        name: args.name,
        definition: args.definition,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'update_report',
    toolset: 'reports',
    destructive: true,
    idempotent: true,
    title: 'Update report',
    description: 'Rename a report, move it to another client (or none), or replace its whole definition.',
    input: {
      id: z.string().describe('rep_…'),
      name: z.string().optional(),
      clientId: z.string().nullable().optional(),
      definition: definitionAsInCreateReport.optional(),
    },
    output: { report: 'object' },
    run: async (deps, args) => ({
      report: await updateReport(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        reportId: args.id,
        name: args.name,
        clientId: args.clientId,
        definition: args.definition,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'update_report_widgets',
    toolset: 'reports',
    destructive: true,
    idempotent: true,
    title: 'Update report widgets',
    description: "Replace a report's widgets, keeping its date configuration.",
    input: { id: z.string().describe('rep_…'), widgets: z.array(widgetAsInCreateReport) },
    output: { report: 'object' },
    run: async (deps, args) => ({
      report: await updateReportWidgets(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        reportId: args.id,
        widgets: args.widgets,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'add_widget',
    toolset: 'reports',
    destructive: false,
    idempotent: false,
    title: 'Add widget',
    description:
      'Add one widget to a report (at the end, or at a 0-based position), validated like a whole definition.',
    input: {
      id: z.string().describe('rep_…'),
      widget: widgetAsInCreateReport,
      position: z.number().int().min(0).optional(),
    },
    output: { report: 'object' },
    run: async (deps, args) => ({
      report: await addWidget(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        reportId: args.id,
        widget: args.widget,
        position: args.position,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'remove_widget',
    toolset: 'reports',
    destructive: true,
    idempotent: false,
    title: 'Remove widget',
    description: 'Remove one widget from a report by its widget id.',
    input: { id: z.string().describe('rep_…'), widgetId: z.string() },
    output: { report: 'object' },
    run: async (deps, args) => ({
      report: await removeWidget(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        reportId: args.id,
        widgetId: args.widgetId,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'duplicate_report',
    toolset: 'reports',
    destructive: false,
    idempotent: false,
    title: 'Duplicate report',
    description: 'Copy a report (same client and definition) under a new name (default: "<name> (copy)").',
    input: { id: z.string().describe('rep_…'), name: z.string().optional() },
    output: { report: 'object' },
    run: async (deps, args) => ({
      report: await duplicateReport(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        reportId: args.id,
        name: args.name,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'archive_report',
    toolset: 'reports',
    destructive: true,
    idempotent: true,
    title: 'Archive report',
    description: 'Archive a report: it disappears from lists and the API. Cannot be undone through MCP.',
    input: { id: z.string().describe('rep_…') },
    output: { report: 'object' },
    run: async (deps, args) => ({
      report: await archiveReport(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        reportId: args.id,
        actor: actorOf(deps),
      }),
    }),
  }),
];
