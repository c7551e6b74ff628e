// The inputs of the reports' admin commands, declared once (errors/command-input.ts): the CLI and
// the MCP write tools parse with them. They hold a definition's structure (what the tools
// advertise); definition.ts's schema, which the command applies, holds the catalogue's rules.
// Strict as that schema is: an unknown key is refused, not dropped before the command sees it.
import { z } from 'zod/v4';
import type { CommandInput } from '../errors/command-input.js';

/** A widget's structure; a fresh one per use, as each tool advertises it in its own words. */
export const reportWidgetInput = () =>
  z.strictObject({
    id: z.string().describe('a-z, 0-9, _ and -, unique in the report'),
    type: z.enum(['kpi', 'line_chart', 'bar_chart', 'table']),
    title: z.string(),
    provider: z.string().describe('a provider of describe_metrics (get_report shows examples)'),
    metrics: z.array(z.string()).describe('metric ids of that provider'),
    // Nullable: a definition read back (get_report, v1) shows a field left out as null, and is written back as read.
    dimension: z.string().nullish().describe('tables: a dimension of the provider'),
    granularity: z.enum(['day', 'week', 'month']).nullish(),
    limit: z.number().int().nullish(),
  });
const DATE_CONFIG = z.strictObject({
  datePreset: z.string(),
  comparePreset: z.string(),
  timezone: z.string().optional().describe("IANA; defaults to the workspace's"),
});
/** A whole definition's structure around `widget`. */
export const reportDefinitionInput = (widget: z.ZodType) =>
  z.strictObject({ widgets: z.array(widget), dateConfig: DATE_CONFIG });

/** The widget of the create input (MCP says it in prose once, there). */
export const CREATE_REPORT_WIDGET = reportWidgetInput();

/** Creating a report: in no client when none is named. */
export const CREATE_REPORT_INPUT = {
  name: z.string(),
  clientId: z.string().nullable().optional(),
  definition: reportDefinitionInput(CREATE_REPORT_WIDGET),
};

/** The create command's fields from its parsed input. */
export const reportToCreate = (input: CommandInput<typeof CREATE_REPORT_INPUT>) => ({
  ...input,
  clientId: input.clientId ?? null,
});
