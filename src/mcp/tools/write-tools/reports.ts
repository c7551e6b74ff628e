// Write tools of the Reports toolset: reports and their widgets, validated like the CLI.
import { z } from 'zod/v4';
import { actorOf, declare, inProse, type WriteTool } from './declare.js';
import {
  addWidget,
  archiveReport,
  CREATE_REPORT_INPUT,
  CREATE_REPORT_WIDGET,
  createReport,
  duplicateReport,
  reportDefinitionInput,
  reportToCreate,
  reportWidgetInput,
  removeWidget,
  updateReport,
  updateReportWidgets,
} from '../../../reports/index.js';

// A widget's JSON Schema would weigh on each tool that takes one, on every tools/list:
// create_report advertises its input's widget as one line (said here: the prose is MCP's), the
// other tools of the toolset (always listed with it) point there; zod checks every field everywhere.
inProse(
  CREATE_REPORT_WIDGET,
  'A widget: {id (a-z, 0-9, _, -; unique in the report), type: kpi|line_chart|bar_chart|table, ' +
    'title, provider, metrics: [metric ids of the provider], dimension? (tables), granularity?: ' +
    'day|week|month, limit?}. describe_metrics lists providers, metrics and dimensions.',
);
const widgetAsInCreateReport = inProse(
  reportWidgetInput(),
  "A widget, shaped as in create_report's definition.widgets.",
);
const definitionAsInCreateReport = inProse(
  reportDefinitionInput(reportWidgetInput()),
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
    input: CREATE_REPORT_INPUT,
    output: { report: 'object' },
    run: async (deps, args) => ({
      report: await createReport(deps.prisma, {
        ...reportToCreate(args),
        workspaceId: deps.principal.workspaceId,
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
