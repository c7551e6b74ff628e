// Write tools of the Reports toolset: reports and their widgets, validated like the CLI.
import { z } from 'zod/v4';
import type { PrismaClient } from '../../../db/generated/prisma/client.js';
import type { Actor } from '../../../workspaces/index.js';
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

/** The report a tool changes, as its command names it. */
interface ReportTarget {
  workspaceId: string;
  reportId: string;
  actor: Actor;
}

/**
 * A tool that changes one report (`id`) and answers it: its command gets the report and the tool's other arguments as
 * they came.
 */
function reportChange<Shape extends z.ZodRawShape>(
  tool: Pick<WriteTool, 'name' | 'title' | 'description' | 'destructive' | 'idempotent'> & {
    input: Shape;
    command(prisma: PrismaClient, input: ReportTarget & z.infer<z.ZodObject<Shape>>): Promise<unknown>;
  },
): WriteTool {
  const { input, command, ...said } = tool;
  return declare({
    ...said,
    toolset: 'reports',
    input: { id: z.string().describe('rep_…'), ...input },
    output: { report: 'object' },
    run: async (deps, args) => {
      const { id, ...rest } = args as Record<string, unknown> & { id: string };
      const target: ReportTarget = { workspaceId: deps.principal.workspaceId, reportId: id, actor: actorOf(deps) };
      return { report: await command(deps.prisma, { ...(rest as z.infer<z.ZodObject<Shape>>), ...target }) };
    },
  });
}

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
  reportChange({
    name: 'update_report',
    destructive: true,
    idempotent: true,
    title: 'Update report',
    description: 'Rename a report, move it to another client (or none), or replace its whole definition.',
    input: {
      name: z.string().optional(),
      clientId: z.string().nullable().optional(),
      definition: definitionAsInCreateReport.optional(),
    },
    command: updateReport,
  }),
  reportChange({
    name: 'update_report_widgets',
    destructive: true,
    idempotent: true,
    title: 'Update report widgets',
    description: "Replace a report's widgets, keeping its date configuration.",
    input: { widgets: z.array(widgetAsInCreateReport) },
    command: updateReportWidgets,
  }),
  reportChange({
    name: 'add_widget',
    destructive: false,
    idempotent: false,
    title: 'Add widget',
    description:
      'Add one widget to a report (at the end, or at a 0-based position), validated like a whole definition.',
    input: { widget: widgetAsInCreateReport, position: z.number().int().min(0).optional() },
    command: addWidget,
  }),
  reportChange({
    name: 'remove_widget',
    destructive: true,
    idempotent: false,
    title: 'Remove widget',
    description: 'Remove one widget from a report by its widget id.',
    input: { widgetId: z.string() },
    command: removeWidget,
  }),
  reportChange({
    name: 'duplicate_report',
    destructive: false,
    idempotent: false,
    title: 'Duplicate report',
    description: 'Copy a report (same client and definition) under a new name (default: "<name> (copy)").',
    input: { name: z.string().optional() },
    command: duplicateReport,
  }),
  reportChange({
    name: 'archive_report',
    destructive: true,
    idempotent: true,
    title: 'Archive report',
    description: 'Archive a report: it disappears from lists and the API. Cannot be undone through MCP.',
    input: {},
    command: archiveReport,
  }),
];
