// MCP write tools. The GraphQL schema is read-only, so writes are declared here once: a zod
// input (its JSON Schema is what tools/list shows) and the same domain code as the CLI, which
// validates definitions, models and thresholds exactly as it does there. They exist only while
// the workspace's write switch is on; each change is audited with the OAuth client's name.
import { z } from 'zod/v4';
import type pg from 'pg';
import type { Principal } from '../auth/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { UsageError } from '../errors/index.js';
import { addPrompts, archiveProject, createProject, setProjectDomains, setPromptsArchived, updatePrompts, updateProject } from '../ai-visibility/index.js';
import { addWidget, archiveReport, createReport, duplicateReport, removeWidget, updateReport, updateReportWidgets } from '../reports/index.js';
import { setRule } from '../signals/index.js';
import { acknowledgeSignal, SIGNAL_KINDS } from '../signals/index.js';
import { archiveClient, createClient, renameClient } from '../clients/index.js';
import { createEndpoint, EVENT_TYPES, replayEvent, replayFailed, sendTestEvent, setEnabled, type WebhookDeps } from '../webhooks/index.js';
import { AI_MODELS } from '../ai-visibility/index.js';
import type { JsonSchema } from './operation-tools.js';

export interface WriteDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  /** The webhook endpoints' dependencies (secret box, target policy). */
  webhooks: WebhookDeps;
  principal: Extract<Principal, { kind: 'oauth' }>;
}

export interface WriteTool {
  write: true;
  name: string;
  title: string;
  description: string;
  /** May overwrite or remove what is there (anything but a purely additive change). */
  destructive: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotent: boolean;
  /** Calls the customer's own endpoints (webhook deliveries). */
  openWorld: boolean;
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
// A widget's JSON Schema would cost ~170 tokens in each of four tools' input schemas on every
// tools/list: the tools advertise this line instead, and zod still checks every field.
const WIDGET_SHAPE = 'A widget: {id (a-z, 0-9, _, -; unique in the report), type: kpi|line_chart|bar_chart|table, title, provider, metrics: [metric ids of the provider], dimension? (tables), granularity?: day|week|month, limit?}. describe_metrics lists providers, metrics and dimensions.';
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

const SAFE_INTEGER_BOUNDS = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/**
 * zod's JSON Schema said tersely, as the read tools' are (every tools/list pays for each token):
 * nullable as a type list, no safe-integer bounds zod adds to every int, no
 * `additionalProperties: false` (unknown arguments are refused when the tool runs).
 */
function terseSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(terseSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const variants = node.anyOf as Record<string, unknown>[] | undefined;
  if (variants?.length === 2 && variants.some((variant) => variant.type === 'null')) {
    const other = variants.find((variant) => variant.type !== 'null')!;
    if (typeof other.type === 'string') {
      const { anyOf: _anyOf, ...rest } = node;
      return terseSchema({ ...rest, ...other, type: [other.type, 'null'] });
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, property]) => [name, terseSchema(property)])) : terseSchema(value);
  }
  return out;
}

function declare<Shape extends z.ZodRawShape>(tool: {
  name: string;
  title: string;
  description: string;
  destructive: boolean;
  idempotent: boolean;
  openWorld?: boolean;
  input: Shape;
  run(deps: WriteDeps, args: z.infer<z.ZodObject<Shape>>): Promise<Record<string, unknown>>;
}): WriteTool {
  const schema = z.object(tool.input).strict();
  const advertised = z.toJSONSchema(schema, {
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema !== widget) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
      Object.assign(jsonSchema, { type: 'object', description: WIDGET_SHAPE });
    },
  });
  const { $schema: _dialect, ...inputSchema } = terseSchema(advertised) as JsonSchema;
  return {
    write: true,
    name: tool.name,
    title: tool.title,
    description: tool.description,
    destructive: tool.destructive,
    idempotent: tool.idempotent,
    openWorld: tool.openWorld ?? false,
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
    name: 'create_client',
    destructive: false,
    idempotent: false,
    title: 'Create client',
    description: 'Add a client (a customer of the workspace) by name; connect its data providers in the app.',
    input: { name: z.string() },
    run: async (deps, args) => ({ client: await createClient(deps.prisma, { workspaceId: deps.principal.workspaceId, name: args.name, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'update_client',
    destructive: true,
    idempotent: true,
    title: 'Rename client',
    description: 'Rename a client (cli_…).',
    input: { id: z.string().describe('cli_…'), name: z.string() },
    run: async (deps, args) => ({ client: await renameClient(deps.prisma, { workspaceId: deps.principal.workspaceId, clientId: args.id, name: args.name, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'archive_client',
    destructive: true,
    idempotent: false,
    title: 'Archive client',
    description: 'Archive a client: it leaves every list, the API and the app; its reports and projects stay.',
    input: { id: z.string().describe('cli_…') },
    run: async (deps, args) => ({ client: await archiveClient(deps.prisma, { workspaceId: deps.principal.workspaceId, clientId: args.id, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'create_report',
    destructive: false,
    idempotent: false,
    title: 'Create report',
    description: 'Create a report from widgets and a date configuration (datePreset, comparePreset); validated like the CLI.',
    input: { name: z.string(), clientId: z.string().nullable().optional(), definition },
    run: async (deps, args) => ({ report: await createReport(deps.prisma, { workspaceId: deps.principal.workspaceId, clientId: args.clientId ?? null, name: args.name, definition: args.definition, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'update_report',
    destructive: true,
    idempotent: true,
    title: 'Update report',
    description: 'Rename a report, move it to another client (or none), or replace its whole definition.',
    input: { id: z.string().describe('rep_…'), name: z.string().optional(), clientId: z.string().nullable().optional(), definition: definition.optional() },
    run: async (deps, args) => ({ report: await updateReport(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, name: args.name, clientId: args.clientId, definition: args.definition, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'update_report_widgets',
    destructive: true,
    idempotent: true,
    title: 'Update report widgets',
    description: "Replace a report's widgets, keeping its date configuration.",
    input: { id: z.string().describe('rep_…'), widgets: z.array(widget) },
    run: async (deps, args) => ({ report: await updateReportWidgets(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, widgets: args.widgets, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'add_widget',
    destructive: false,
    idempotent: false,
    title: 'Add widget',
    description: "Add one widget to a report (at the end, or at a 0-based position), validated like a whole definition.",
    input: { id: z.string().describe('rep_…'), widget, position: z.number().int().min(0).optional() },
    run: async (deps, args) => ({ report: await addWidget(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, widget: args.widget, position: args.position, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'remove_widget',
    destructive: true,
    idempotent: false,
    title: 'Remove widget',
    description: 'Remove one widget from a report by its widget id.',
    input: { id: z.string().describe('rep_…'), widgetId: z.string() },
    run: async (deps, args) => ({ report: await removeWidget(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, widgetId: args.widgetId, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'duplicate_report',
    destructive: false,
    idempotent: false,
    title: 'Duplicate report',
    description: 'Copy a report (same client and definition) under a new name (default: "<name> (copy)").',
    input: { id: z.string().describe('rep_…'), name: z.string().optional() },
    run: async (deps, args) => ({ report: await duplicateReport(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, name: args.name, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'archive_report',
    destructive: true,
    idempotent: true,
    title: 'Archive report',
    description: 'Archive a report: it disappears from lists and the API. Cannot be undone through MCP.',
    input: { id: z.string().describe('rep_…') },
    run: async (deps, args) => ({ report: await archiveReport(deps.prisma, { workspaceId: deps.principal.workspaceId, reportId: args.id, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'create_ai_visibility_project',
    destructive: false,
    idempotent: false,
    title: 'Create AI-visibility project',
    description: 'Track a brand (and competitors) in AI assistants for the given models and locales.',
    input: projectFields,
    run: async (deps, args) => ({ project: await createProject(deps.prisma, { workspaceId: deps.principal.workspaceId, fields: args, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'update_ai_visibility_project',
    destructive: true,
    idempotent: true,
    title: 'Update AI-visibility project',
    description: "Change a project's name, brand, client, competitors, models or locales (only the fields given).",
    input: { id: z.string().describe('prj_…'), name: z.string().optional(), brand: z.string().optional(), clientId: z.string().nullable().optional(), competitors: z.array(z.string()).optional(), models: z.array(z.enum(AI_MODELS)).optional(), locales: z.array(z.string()).optional() },
    run: async (deps, { id, ...fields }) => ({ project: await updateProject(deps.prisma, { workspaceId: deps.principal.workspaceId, projectId: id, fields, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'archive_ai_visibility_project',
    destructive: true,
    idempotent: false,
    title: 'Archive AI-visibility project',
    description: 'Archive a project (prj_…): it leaves lists and stops ingesting scans; its data stays.',
    input: { id: z.string().describe('prj_…') },
    run: async (deps, args) => ({ project: await archiveProject(deps.prisma, { workspaceId: deps.principal.workspaceId, projectId: args.id, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'set_project_domains',
    destructive: true,
    idempotent: true,
    title: 'Set project domains',
    description: "Set the brand's own domains (citations of these count as owned) and, optionally, each tracked competitor's domains. Replaces the given lists.",
    input: {
      projectId: z.string().describe('prj_…'),
      domains: z.array(z.string()).describe('e.g. ["acme.com"]'),
      competitorDomains: z.array(z.object({ name: z.string().describe('a tracked competitor'), domains: z.array(z.string()) })).optional(),
    },
    run: async (deps, args) => ({ project: await setProjectDomains(deps.prisma, { projectId: args.projectId, domains: args.domains, competitorDomains: args.competitorDomains, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'add_prompts',
    destructive: false,
    idempotent: true,
    title: 'Add prompts',
    description: 'Track new prompts in a project (texts it already tracks are reported, not duplicated), with an optional topic and tags for all of them.',
    input: { projectId: z.string().describe('prj_…'), texts: z.array(z.string()).min(1).max(500), topic: z.string().optional(), tags: z.array(z.string()).optional() },
    run: async (deps, args) => addPrompts(deps.prisma, { projectId: args.projectId, prompts: args.texts.map((text) => ({ text, topic: args.topic, tags: args.tags })), actor: actorOf(deps) }),
  }),
  declare({
    name: 'update_prompts',
    destructive: true,
    idempotent: true,
    title: 'Update prompts',
    description: 'Set the topic and/or the tags of several prompts at once (given fields replace; topic null clears it).',
    input: { promptIds: z.array(z.string()).min(1).max(500).describe('pmt_…'), topic: z.string().nullable().optional(), tags: z.array(z.string()).optional() },
    run: async (deps, args) => ({ prompts: await updatePrompts(deps.prisma, { promptIds: args.promptIds, topic: args.topic, tags: args.tags, actor: actorOf(deps) }) }),
  }),
  ...(['archive', 'restore'] as const).map((verb) =>
    declare({
      name: `${verb}_prompts`,
      destructive: verb === 'archive',
      idempotent: true,
      title: verb === 'archive' ? 'Archive prompts' : 'Restore prompts',
      description: verb === 'archive' ? 'Stop tracking prompts (their answers stay readable); restore_prompts undoes it.' : 'Track archived prompts again.',
      input: { promptIds: z.array(z.string()).min(1).max(500).describe('pmt_…') },
      run: async (deps, args) => ({ prompts: await setPromptsArchived(deps.prisma, { promptIds: args.promptIds, archived: verb === 'archive', actor: actorOf(deps) }) }),
    }),
  ),
  declare({
    name: 'create_webhook_endpoint',
    destructive: false,
    idempotent: false,
    title: 'Create webhook endpoint',
    description: 'Register an https URL to receive scan.completed and/or signal.created events (signed, Standard Webhooks). Its signing secret is shown in Settings, not here.',
    input: { url: z.string(), eventTypes: z.array(z.enum(EVENT_TYPES)).optional(), description: z.string().max(500).optional() },
    run: async (deps, args) => {
      const { secret: _secret, ...endpoint } = await createEndpoint(deps.webhooks, { workspaceId: deps.principal.workspaceId, url: args.url, eventTypes: args.eventTypes ?? [...EVENT_TYPES], description: args.description ?? null, actor: actorOf(deps) });
      return { endpoint };
    },
  }),
  declare({
    name: 'update_webhook_endpoint',
    destructive: true,
    idempotent: true,
    title: 'Enable or disable webhook endpoint',
    description: 'Switch a webhook endpoint (whe_…) on or off; a re-enabled endpoint receives events created from then on.',
    input: { id: z.string().describe('whe_…'), enabled: z.boolean() },
    run: async (deps, args) => ({ endpoint: await setEnabled(deps.webhooks, args.id, args.enabled, actorOf(deps)) }),
  }),
  declare({
    name: 'send_test_event',
    destructive: false,
    idempotent: false,
    openWorld: true,
    title: 'Send test event',
    description: 'Send a signed test event (data.test = true) to one enabled endpoint (whe_…) only, to check it receives and verifies deliveries; list_webhook_attempts shows the outcome.',
    input: { id: z.string().describe('whe_…') },
    run: async (deps, args) => ({ test: await sendTestEvent(deps.webhooks, args.id, actorOf(deps)) }),
  }),
  declare({
    name: 'replay_webhook_event',
    destructive: true,
    idempotent: false,
    openWorld: true,
    title: 'Replay webhook event',
    description: 'Send one event (evt_…) again, with the same webhook-id, to every endpoint that should receive it or to one endpoint.',
    input: { eventId: z.string().describe('evt_…'), endpointId: z.string().optional().describe('whe_…') },
    run: async (deps, args) => ({ replay: await replayEvent(deps.webhooks, args.eventId, args.endpointId ?? null, actorOf(deps)) }),
  }),
  declare({
    name: 'replay_failed_webhooks',
    destructive: true,
    idempotent: false,
    openWorld: true,
    title: 'Replay failed webhooks',
    description: 'Send again every delivery of the workspace that failed since a time (ISO 8601), each with its whole retry schedule.',
    input: { since: z.string().describe('ISO 8601, e.g. 2026-11-20T00:00:00Z') },
    run: async (deps, args) => ({ replay: await replayFailed(deps.webhooks, deps.principal.workspaceId, new Date(args.since), actorOf(deps)) }),
  }),
  declare({
    name: 'acknowledge_signal',
    destructive: false,
    idempotent: true,
    title: 'Acknowledge signal',
    description: 'Mark a signal (sig_…) as seen and dealt with.',
    input: { id: z.string().describe('sig_…') },
    run: async (deps, args) => ({ signal: await acknowledgeSignal(deps.prisma, { workspaceId: deps.principal.workspaceId, signalId: args.id, actor: actorOf(deps) }) }),
  }),
  declare({
    name: 'set_signal_rule',
    destructive: true,
    idempotent: true,
    title: 'Set signal rule',
    description: 'Set a project\'s signal rule threshold and switch it on or off (owners and admins); list_signal_rules explains the kinds.',
    input: { projectId: z.string().describe('prj_…'), kind: z.enum(SIGNAL_KINDS), threshold: z.number(), enabled: z.boolean().default(true) },
    run: async (deps, args) => ({ rule: await setRule(deps.prisma, { projectId: args.projectId, kind: args.kind, threshold: args.threshold, enabled: args.enabled, actor: actorOf(deps) }) }),
  }),
];
