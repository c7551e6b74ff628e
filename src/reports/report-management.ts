// Creating and changing reports: the domain code of the CLI and the MCP write tools. Every
// definition passes the same validation against the catalog; every change is audited.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { isIdOf, newId } from '../db/ids.js';
import { UsageError } from '../errors/index.js';
import { recordAudit } from '../audit/audit-log.js';
import type { Actor } from '../workspaces/actor.js';
import { formatZodIssues, reportDefinitionSchema, type ReportDefinition } from './definition.js';

const actorLabel = (actor: Actor & { userId?: string }) => actor.userId ?? (actor.email ? actor.email : 'operator');
const via = (actor: Actor) => (actor.via ? { via: actor.via } : {});

/** A definition as given, with the workspace's time zone when it names none; validated. */
export function validDefinition(raw: unknown, workspaceTimezone: string): ReportDefinition {
  const candidate =
    raw && typeof raw === 'object' && !(raw as { dateConfig?: { timezone?: string } }).dateConfig?.timezone
      ? { ...raw, dateConfig: { ...((raw as { dateConfig?: object }).dateConfig ?? {}), timezone: workspaceTimezone } }
      : raw;
  const parsed = reportDefinitionSchema.safeParse(candidate);
  if (!parsed.success) throw new UsageError(`invalid definition: ${formatZodIssues(parsed.error)}`);
  return parsed.data;
}

async function clientInWorkspace(prisma: PrismaClient, workspaceId: string, clientId: string | null) {
  if (clientId && !(await prisma.client.findFirst({ where: { id: clientId, workspaceId } }))) throw new UsageError(`no client ${clientId} in this workspace`, 'not_found');
}

async function liveReport(prisma: PrismaClient, workspaceId: string, reportId: string) {
  if (!isIdOf('report', reportId)) throw new UsageError(`${reportId} is not a report id (rep_…)`);
  const report = await prisma.report.findFirst({ where: { id: reportId, workspaceId, archivedAt: null } });
  if (!report) throw new UsageError(`no report ${reportId} in this workspace`, 'not_found');
  return report;
}

const view = (report: { id: string; name: string; clientId: string | null; definition: unknown; updatedAt: Date; archivedAt: Date | null }) => ({
  id: report.id,
  name: report.name,
  clientId: report.clientId,
  definition: report.definition as ReportDefinition,
  updatedAt: report.updatedAt.toISOString(),
  archivedAt: report.archivedAt?.toISOString() ?? null,
});

function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 200) throw new UsageError('a report name has 1-200 characters');
  return trimmed;
}

export async function createReport(prisma: PrismaClient, input: { workspaceId: string; clientId: string | null; name: string; definition: unknown; actor: Actor & { userId?: string } }) {
  const workspace = await prisma.workspace.findUniqueOrThrow({ where: { id: input.workspaceId } });
  const definition = validDefinition(input.definition, workspace.timezone);
  await clientInWorkspace(prisma, input.workspaceId, input.clientId);
  const report = await prisma.report.create({ data: { id: newId('report'), workspaceId: input.workspaceId, clientId: input.clientId, name: validName(input.name), definition: definition as object } });
  await recordAudit(prisma, { workspaceId: input.workspaceId, actor: actorLabel(input.actor), action: 'report.created', target: report.id, details: { name: report.name, ...via(input.actor) } });
  return view(report);
}

export async function updateReport(prisma: PrismaClient, input: { workspaceId: string; reportId: string; name?: string | undefined; clientId?: string | null | undefined; definition?: unknown; actor: Actor & { userId?: string } }) {
  const report = await liveReport(prisma, input.workspaceId, input.reportId);
  const workspace = await prisma.workspace.findUniqueOrThrow({ where: { id: input.workspaceId } });
  if (input.clientId !== undefined) await clientInWorkspace(prisma, input.workspaceId, input.clientId);
  const updated = await prisma.report.update({
    where: { id: report.id },
    data: {
      ...(input.name !== undefined ? { name: validName(input.name) } : {}),
      ...(input.clientId !== undefined ? { clientId: input.clientId } : {}),
      ...(input.definition !== undefined ? { definition: validDefinition(input.definition, workspace.timezone) as object } : {}),
    },
  });
  await recordAudit(prisma, { workspaceId: input.workspaceId, actor: actorLabel(input.actor), action: 'report.updated', target: report.id, details: { fields: Object.keys(input).filter((key) => ['name', 'clientId', 'definition'].includes(key) && input[key as keyof typeof input] !== undefined), ...via(input.actor) } });
  return view(updated);
}

/** Replaces the widgets, keeping the date configuration. */
export async function updateReportWidgets(prisma: PrismaClient, input: { workspaceId: string; reportId: string; widgets: unknown; actor: Actor & { userId?: string } }) {
  const report = await liveReport(prisma, input.workspaceId, input.reportId);
  const definition = report.definition as ReportDefinition;
  return updateReport(prisma, { workspaceId: input.workspaceId, reportId: report.id, definition: { ...definition, widgets: input.widgets }, actor: input.actor });
}

export async function archiveReport(prisma: PrismaClient, input: { workspaceId: string; reportId: string; actor: Actor & { userId?: string } }) {
  const report = await liveReport(prisma, input.workspaceId, input.reportId);
  const archived = await prisma.report.update({ where: { id: report.id }, data: { archivedAt: new Date() } });
  await recordAudit(prisma, { workspaceId: input.workspaceId, actor: actorLabel(input.actor), action: 'report.archived', target: report.id, details: { ...via(input.actor) } });
  return view(archived);
}
