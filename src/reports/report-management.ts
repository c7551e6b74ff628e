// Creating and changing reports: the domain code of the CLI and the MCP write tools. Every
// definition passes the same validation against the catalog; every change is audited.
import type { Prisma, PrismaClient } from '../db/generated/prisma/client.js';
import { isIdOf, newId } from '../db/ids.js';
import { UsageError } from '../errors/index.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand, type AdminCommandPolicy } from '../workspaces/index.js';
import { assertClientOfWorkspace } from '../clients/index.js';
import { formatZodIssues, reportDefinitionSchema, type ReportDefinition } from './definition.js';

// Reports are the workspace's content: its members make them too.
const REPORTS: AdminCommandPolicy = { what: 'change reports', members: true };
type Db = Prisma.TransactionClient;

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

async function liveReport(prisma: Db, workspaceId: string, reportId: string) {
  if (!isIdOf('report', reportId)) throw new UsageError(`${reportId} is not a report id (rep_…)`);
  const report = await prisma.report.findFirst({ where: { id: reportId, workspaceId, archivedAt: null } });
  if (!report) throw new UsageError(`no report ${reportId} in this workspace`, 'not_found');
  return report;
}

const view = (report: {
  id: string;
  name: string;
  clientId: string | null;
  definition: unknown;
  updatedAt: Date;
  archivedAt: Date | null;
}) => ({
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

export function createReport(
  prisma: PrismaClient,
  input: { workspaceId: string; clientId: string | null; name: string; definition: unknown; actor: Actor },
) {
  return adminCommand(prisma, input, REPORTS, async ({ tx, audit }) => {
    const workspace = await tx.workspace.findUniqueOrThrow({ where: { id: input.workspaceId } });
    const definition = validDefinition(input.definition, workspace.timezone);
    await assertClientOfWorkspace(tx, input.workspaceId, input.clientId);
    const report = await tx.report.create({
      data: {
        id: newId('report'),
        workspaceId: input.workspaceId,
        clientId: input.clientId,
        name: validName(input.name),
        definition: definition as object,
      },
    });
    await audit('report.created', report.id, { name: report.name });
    return view(report);
  });
}

export interface ReportChange {
  workspaceId: string;
  reportId: string;
  name?: string | undefined;
  clientId?: string | null | undefined;
  definition?: unknown;
  actor: Actor;
}

export function updateReport(prisma: PrismaClient, input: ReportChange) {
  return adminCommand(prisma, input, REPORTS, async ({ tx, audit }) => {
    const report = await liveReport(tx, input.workspaceId, input.reportId);
    return applyChange(tx, report.id, input, audit);
  });
}

async function applyChange(
  tx: Db,
  reportId: string,
  input: ReportChange,
  audit: (action: string, target: string, details?: Record<string, unknown>) => Promise<void>,
) {
  const workspace = await tx.workspace.findUniqueOrThrow({ where: { id: input.workspaceId } });
  if (input.clientId !== undefined) await assertClientOfWorkspace(tx, input.workspaceId, input.clientId);
  const updated = await tx.report.update({
    where: { id: reportId },
    data: {
      ...(input.name !== undefined ? { name: validName(input.name) } : {}),
      ...(input.clientId !== undefined ? { clientId: input.clientId } : {}),
      ...(input.definition !== undefined
        ? { definition: validDefinition(input.definition, workspace.timezone) as object }
        : {}),
    },
  });
  await audit('report.updated', reportId, {
    fields: (['name', 'clientId', 'definition'] as const).filter((key) => input[key] !== undefined),
  });
  return view(updated);
}

/** Replaces the widgets, keeping the date configuration. */
export function updateReportWidgets(
  prisma: PrismaClient,
  input: { workspaceId: string; reportId: string; widgets: unknown; actor: Actor },
) {
  return adminCommand(prisma, input, REPORTS, async ({ tx, audit }) => {
    const report = await liveReport(tx, input.workspaceId, input.reportId);
    const definition = report.definition as ReportDefinition;
    return applyChange(tx, report.id, { ...input, definition: { ...definition, widgets: input.widgets } }, audit);
  });
}

/** Adds one widget at the end (or at `position`, 0-based), validated with the whole definition. */
export function addWidget(
  prisma: PrismaClient,
  input: { workspaceId: string; reportId: string; widget: unknown; position?: number | undefined; actor: Actor },
) {
  return adminCommand(prisma, input, REPORTS, async ({ tx, audit }) => {
    const report = await liveReport(tx, input.workspaceId, input.reportId);
    const definition = report.definition as ReportDefinition;
    const widgets: unknown[] = [...definition.widgets];
    widgets.splice(input.position ?? widgets.length, 0, input.widget);
    return applyChange(tx, report.id, { ...input, definition: { ...definition, widgets } }, audit);
  });
}

/** Removes one widget by its id; an unknown id is named. */
export function removeWidget(
  prisma: PrismaClient,
  input: { workspaceId: string; reportId: string; widgetId: string; actor: Actor },
) {
  return adminCommand(prisma, input, REPORTS, async ({ tx, audit }) => {
    const report = await liveReport(tx, input.workspaceId, input.reportId);
    const definition = report.definition as ReportDefinition;
    if (!definition.widgets.some((widget) => widget.id === input.widgetId))
      throw new UsageError(
        `report ${report.id} has no widget ${input.widgetId} ` +
          `(widgets: ${definition.widgets.map((widget) => widget.id).join(', ')})`,
        'not_found',
      );
    return applyChange(
      tx,
      report.id,
      {
        ...input,
        definition: { ...definition, widgets: definition.widgets.filter((widget) => widget.id !== input.widgetId) },
      },
      audit,
    );
  });
}

/** A copy of a report (same client and definition) under a new name. */
export function duplicateReport(
  prisma: PrismaClient,
  input: { workspaceId: string; reportId: string; name?: string | undefined; actor: Actor },
) {
  return adminCommand(prisma, input, REPORTS, async ({ tx, audit }) => {
    const source = await liveReport(tx, input.workspaceId, input.reportId);
    const copy = await tx.report.create({
      data: {
        id: newId('report'),
        workspaceId: input.workspaceId,
        clientId: source.clientId,
        name: validName(input.name ?? `${source.name} (copy)`.slice(0, 200)),
        definition: source.definition as object,
      },
    });
    await audit('report.created', copy.id, { name: copy.name, duplicateOf: source.id });
    return view(copy);
  });
}

export function archiveReport(prisma: PrismaClient, input: { workspaceId: string; reportId: string; actor: Actor }) {
  return adminCommand(prisma, input, REPORTS, async ({ tx, audit }) => {
    const report = await liveReport(tx, input.workspaceId, input.reportId);
    const archived = await tx.report.update({ where: { id: report.id }, data: { archivedAt: new Date() } });
    await audit('report.archived', report.id);
    return view(archived);
  });
}
