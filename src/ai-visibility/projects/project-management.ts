// Creating and changing AI-visibility projects: the domain code of the MCP write tools (and any
// future CLI). Models come from the fixed list; locales are BCP 47 tags; every change is audited.
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { isIdOf, newId } from '../../db/ids.js';
import { UsageError } from '../../errors/index.js';
import type { Actor } from '../../workspaces/index.js';
import { adminCommand, type AdminCommandPolicy } from '../../workspaces/index.js';
import { assertClientOfWorkspace } from '../../clients/index.js';
import { AI_MODELS } from '../common/models.js';
import { canonicalLocale } from '../common/locales.js';
import { PROJECT_LIMITS } from '../common/read-rows.js';

export interface ProjectFields {
  name?: string | undefined;
  brand?: string | undefined;
  clientId?: string | null | undefined;
  competitors?: string[] | undefined;
  models?: string[] | undefined;
  locales?: string[] | undefined;
}

function checked(fields: ProjectFields): ProjectFields {
  const text = (value: string | undefined, what: string) => {
    if (value === undefined) return undefined;
    const trimmed = value.trim();
    if (!trimmed || trimmed.length > 200) throw new UsageError(`${what} has 1-200 characters`);
    return trimmed;
  };
  const unique = (values: string[] | undefined, what: string, max: number) => {
    if (values === undefined) return undefined;
    const list = [...new Set(values.map((value) => value.trim()).filter(Boolean))];
    if (list.length > max) throw new UsageError(`at most ${max} ${what}`);
    return list;
  };
  const models = unique(fields.models, 'models', AI_MODELS.length);
  const unknownModels = models?.filter((model) => !(AI_MODELS as readonly string[]).includes(model)) ?? [];
  if (unknownModels.length)
    throw new UsageError(`unknown model ${unknownModels.join(', ')}; models: ${AI_MODELS.join(', ')}`);
  if (models && !models.length) throw new UsageError('a project tracks at least one model');
  // Stored in canonical case, so a project's locales read as every filter and answer spells them.
  const locales = unique(
    fields.locales?.map((locale) => canonicalLocale(locale.trim()) ?? locale),
    'locales',
    PROJECT_LIMITS.locales,
  );
  const badLocales = locales?.filter((locale) => canonicalLocale(locale) !== locale) ?? [];
  if (badLocales.length) throw new UsageError(`not a locale: ${badLocales.join(', ')} (e.g. en-US)`);
  if (locales && !locales.length) throw new UsageError('a project tracks at least one locale');
  const competitors = unique(fields.competitors, 'competitors', PROJECT_LIMITS.competitors);
  if (competitors?.some((name) => name.length > 200))
    throw new UsageError('a competitor name has at most 200 characters');
  return {
    name: text(fields.name, 'a project name'),
    brand: text(fields.brand, 'a brand'),
    clientId: fields.clientId,
    competitors,
    models,
    locales,
  };
}

const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;

// Projects are the workspace's content: its members make them too.
const PROJECTS: AdminCommandPolicy = { what: 'change AI-visibility projects', members: true };

export function createProject(
  prisma: PrismaClient,
  input: { workspaceId: string; fields: ProjectFields; actor: Actor },
) {
  const fields = checked(input.fields);
  if (!fields.name || !fields.brand || !fields.models || !fields.locales)
    throw new UsageError('name, brand, models and locales are required');
  return adminCommand(prisma, input, PROJECTS, async ({ tx, audit }) => {
    await assertClientOfWorkspace(tx, input.workspaceId, fields.clientId);
    const project = await tx.aiProject.create({
      data: {
        id: newId('project'),
        workspaceId: input.workspaceId,
        clientId: fields.clientId ?? null,
        name: fields.name!,
        brand: fields.brand!,
        competitors: fields.competitors ?? [],
        models: fields.models!,
        locales: fields.locales!,
      },
    });
    await audit('ai_project.created', project.id, { name: project.name });
    return project;
  });
}

type Transaction = Parameters<Parameters<typeof adminCommand>[3]>[0]['tx'];

/** Refuses new locales or competitors that would make the project's data span more than PROJECT_LIMITS. */
async function assertDataSpanWithin(tx: Transaction, projectId: string, fields: ProjectFields) {
  if (!fields.locales && !fields.competitors) return;
  const [stored] = await tx.$queryRawUnsafe<{ locales: string[]; competitors: string[] }[]>(
    `SELECT ARRAY(SELECT DISTINCT locale FROM scans WHERE project_id = $1) AS locales,
       ARRAY(SELECT DISTINCT c->>'name' FROM scans s CROSS JOIN LATERAL jsonb_array_elements(s.competitors) AS c
             WHERE s.project_id = $1 AND s.competitors <> '[]'::jsonb) AS competitors`,
    projectId,
  );
  for (const what of ['locales', 'competitors'] as const) {
    const asked = fields[what];
    if (!asked) continue;
    const span = new Set([...stored![what], ...asked]).size;
    const max = PROJECT_LIMITS[what];
    if (span > max)
      throw new UsageError(
        `a project's data spans at most ${max} ${what}: its scans hold ${stored![what].length}, with these ${span}`,
      );
  }
}

export function updateProject(
  prisma: PrismaClient,
  input: { workspaceId: string; projectId: string; fields: ProjectFields; actor: Actor },
) {
  if (!isIdOf('project', input.projectId)) throw new UsageError(`${input.projectId} is not a project id (prj_…)`);
  const fields = checked(input.fields);
  return adminCommand(prisma, input, PROJECTS, async ({ tx, audit }) => {
    const existing = await tx.aiProject.findFirst({
      where: { id: input.projectId, workspaceId: input.workspaceId, archivedAt: null },
    });
    if (!existing) throw new UsageError(`no AI-visibility project ${input.projectId} in this workspace`, 'not_found');
    await assertClientOfWorkspace(tx, input.workspaceId, fields.clientId);
    await assertDataSpanWithin(tx, existing.id, fields);
    const project = await tx.aiProject.update({ where: { id: existing.id }, data: defined(fields) as never });
    await audit('ai_project.updated', project.id, { fields: Object.keys(defined(input.fields)) });
    return project;
  });
}

/** Takes a project out of every list and read; ingestion refuses its scans from then on. Its data stays. */
export function archiveProject(prisma: PrismaClient, input: { workspaceId: string; projectId: string; actor: Actor }) {
  if (!isIdOf('project', input.projectId)) throw new UsageError(`${input.projectId} is not a project id (prj_…)`);
  return adminCommand(prisma, input, PROJECTS, async ({ tx, audit }) => {
    const existing = await tx.aiProject.findFirst({
      where: { id: input.projectId, workspaceId: input.workspaceId, archivedAt: null },
    });
    if (!existing) throw new UsageError(`no AI-visibility project ${input.projectId} in this workspace`, 'not_found');
    const archived = await tx.aiProject.update({ where: { id: existing.id }, data: { archivedAt: new Date() } });
    await audit('ai_project.archived', existing.id);
    return { id: archived.id, name: archived.name, archivedAt: archived.archivedAt!.toISOString() };
  });
}
