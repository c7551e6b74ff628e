// The report definition: widgets plus date configuration, validated against the catalog.
import { z } from 'zod';
import { catalog, PROVIDERS, type ProviderId } from './catalog.js';
import { isTimeZone } from '../dates/civil-date.js';
import { COMPARE_PRESETS, DATE_PRESETS } from './date-presets.js';

export const WIDGET_TYPES = ['kpi', 'line_chart', 'bar_chart', 'table'] as const;
export const GRANULARITIES = ['day', 'week', 'month'] as const;
/** What one report can hold: widgets, metrics per widget, rows per table widget. */
export const DEFINITION_LIMITS = { widgets: 50, metricsPerWidget: 10, tableRows: 100 } as const;

// A definition read back shows an absent field as null (GraphQL, v1, MCP's get_report): written back
// as it is, a null is that field left out.
const withoutNulls = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null))
    : value;

const widgetObject = z
  .object({
    id: z.string().regex(/^[a-z0-9_-]{1,40}$/, 'widget ids are 1-40 characters of a-z, 0-9, _ and -'),
    type: z.enum(WIDGET_TYPES),
    title: z.string().min(1).max(200),
    provider: z.enum(PROVIDERS),
    metrics: z.array(z.string()).min(1).max(DEFINITION_LIMITS.metricsPerWidget),
    dimension: z.string().optional(),
    granularity: z.enum(GRANULARITIES).optional(),
    limit: z.number().int().min(1).max(DEFINITION_LIMITS.tableRows).optional(),
  })
  .strict()
  .superRefine((widget, ctx) => {
    const provider = catalog[widget.provider as ProviderId];
    widget.metrics.forEach((metric, index) => {
      if (!(metric in provider.metrics)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['metrics', index],
          message: `${widget.provider} has no metric "${metric}"; allowed: ${Object.keys(provider.metrics).join(', ')}`,
        });
      }
    });
    if (widget.type === 'table' && !widget.dimension) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['dimension'], message: 'a table widget needs a dimension' });
    }
    if (widget.dimension && !provider.dimensions.includes(widget.dimension)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['dimension'],
        message:
          `${widget.provider} has no dimension "${widget.dimension}"; ` + `allowed: ${provider.dimensions.join(', ')}`,
      });
    }
  });
const widgetSchema = z.preprocess(withoutNulls, widgetObject);

export const reportDefinitionSchema = z
  .object({
    widgets: z.array(widgetSchema).max(DEFINITION_LIMITS.widgets),
    dateConfig: z
      .object({
        datePreset: z.enum(DATE_PRESETS),
        comparePreset: z.enum(COMPARE_PRESETS),
        timezone: z.string().refine(isTimeZone, 'not an IANA time zone'),
      })
      .strict(),
  })
  .strict()
  .superRefine((definition, ctx) => {
    const seen = new Set<string>();
    definition.widgets.forEach((widget, index) => {
      if (seen.has(widget.id))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['widgets', index, 'id'],
          message: `duplicate widget id "${widget.id}"`,
        });
      seen.add(widget.id);
    });
  });

export type ReportDefinition = z.infer<typeof reportDefinitionSchema>;
export type Widget = ReportDefinition['widgets'][number];

export function formatZodIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}
