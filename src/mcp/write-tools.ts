// MCP write tools. The GraphQL schema is read-only, so writes are declared here once: a zod
// input (its JSON Schema is what tools/list shows) and the same domain code as the CLI, which
// validates definitions, models and thresholds exactly as it does there. They exist only while
// the workspace's write switch is on; each change is audited with the OAuth client's name.
import { z } from 'zod/v4';
import type pg from 'pg';
import type { Principal } from '../auth/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { UsageError } from '../errors/index.js';
import { createProject, updateProject } from '../ai-visibility/index.js';
import { archiveReport, createReport, updateReport, updateReportWidgets } from '../reports/index.js';
import { setRule } from '../signals/index.js';
import { SIGNAL_KINDS } from '../signals/index.js';
import { AI_MODELS } from '../ai-visibility/index.js';
import type { JsonSchema } from './operation-tools.js';

export interface WriteDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  principal: Extract<Principal, { kind: 'oauth' }>;
}

export interface WriteTool {
  write: true;
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  run(deps: WriteDeps, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const widget = z.object({
  id: z.string().describe('a-z, 0-9, _ and -, unique in the report'),
  type: z.enum(['kpi', 'line_chart', 'bar_chart', 'table']),
  title: z.string(),
  provider: z.string().describe('a provider of describe_metrics (get_report shows examples)'),
  metrics: z.array(z.string()).describe('metric ids of that provider'),
  dimension: z.string().optional().describe('tables: a dimension of the provider'),
  granularity: z.enum(['day', 'week', 'month']).optional(),
  limit: z.number().int().optional(),
});
const dateConfig = z.object({ datePreset: z.string(), comparePreset: z.string(), timezone: z.string().optional().describe('IANA; defaults to the workspace\'s') });
const definition = z.object({ widgets: z.array(widget), dateConfig });
const projectFields = {
  name: z.string(),
  brand: z.string().describe('the brand whose mentions are counted'),
  clientId: z.string().nullable().optional(),
  competitors: z.array(z.string()).optional(),
  models: z.array(z.enum(AI_MODELS)),
  locales: z.array(z.string()).describe('BCP 47, e.g. en-US'),
};

function declare<Shape extends z.ZodRawShape>(tool: { name: string; title: string; description: string; input: Shape; run(deps: WriteDeps, args: z.infer<z.ZodObject<Shape>>): Promise<Record<string, unknown>> }): WriteTool {
  const schema = z.object(tool.input).strict();
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(schema) as JsonSchema;
  return {
    write: true,
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema,
    async run(deps, args) {
      const parsed = schema.safeParse(args);
      if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; '));
      return tool.run(deps, parsed.data);
    },
  };
}

const actorOf = (deps: WriteDeps) => ({ email: deps.principal.email, workspaceId: deps.principal.workspaceId, userId: deps.principal.userId, via: deps.principal.clientName });

export const WRITE_TOOLS: WriteTool[] = [
  declare({
    name: 'create_report',
    title: 'Create report',
    description: 'Create a report from widgets (KPI, line/bar chart, table: provider, metrics, optional dimension) and a date configuration (datePreset, comparePreset). Validated like the CLI; returns the report.',
    input: { name: z.string(), clientId: z.string().nullable().optional(), definition },
    run: async (deps, args) => ({ report: await createReport(deps.prisma, { workspaceId: deps.principal.workspaceId, clientId: args.clientId ?? null, name: args.name, definition: args.definition, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'update_report',
    title: 'Update report',
    description: 'Rename a report, move it to another client (or none), or replace its whole definition.',
    input: { id: z.string().describe('rep_…'), name: z.string().optional(), clientId: z.string().nullable().optional(), definition: definition.optional() },
    run: async (deps, args) => ({ report: await updateReport(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, name: args.name, clientId: args.clientId, definition: args.definition, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'update_report_widgets',
    title: 'Update report widgets',
    description: "Replace a report's widgets, keeping its date configuration.",
    input: { id: z.string().describe('rep_…'), widgets: z.array(widget) },
    run: async (deps, args) => ({ report: await updateReportWidgets(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, widgets: args.widgets, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'archive_report',
    title: 'Archive report',
    description: 'Archive a report: it disappears from lists and the API. Cannot be undone through MCP.',
    input: { id: z.string().describe('rep_…') },
    run: async (deps, args) => ({ report: await archiveReport(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'create_ai_visibility_project',
    title: 'Create AI-visibility project',
    description: 'Track a brand (and competitors) in AI assistants for the given models and locales.',
    input: projectFields,
    run: async (deps, args) => ({ project: await createProject(deps.prisma, { workspaceId: deps.principal.workspaceId, fields: args, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'update_ai_visibility_project',
    title: 'Update AI-visibility project',
    description: "Change a project's name, brand, client, competitors, models or locales (only the fields given).",
    input: { id: z.string().describe('prj_…'), name: z.string().optional(), brand: z.string().optional(), clientId: z.string().nullable().optional(), competitors: z.array(z.string()).optional(), models: z.array(z.enum(AI_MODELS)).optional(), locales: z.array(z.string()).optional() },
    run: async (deps, { id, ...fields }) => ({ project: await updateProject(deps.prisma, { workspaceId: deps.principal.workspaceId, projectId: id, fields, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'set_signal_rule',
    title: 'Set signal rule',
    description: 'Set the threshold of one of a project\'s signal rules and switch it on or off (owners and admins only). list_signal_rules shows what each kind means.',
    input: { projectId: z.string().describe('prj_…'), kind: z.enum(SIGNAL_KINDS), threshold: z.number(), enabled: z.boolean().default(true) },
    run: async (deps, args) => ({ rule: await setRule(deps.prisma, { projectId: args.projectId, kind: args.kind, threshold: args.threshold, enabled: args.enabled, actor: actorOf(deps) }) }),
  }),
];
