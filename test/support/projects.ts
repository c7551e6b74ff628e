// AI-visibility projects as tests and benchmarks make them: straight into the database, as the
// settings and the CLI would leave them.
import type { Database } from '../../src/db/client.js';
import type { Prisma } from '../../src/db/generated/prisma/client.js';
import { newId } from '../../src/db/ids.js';

/** What an AI-visibility project is made with here: its name, models and locales, and whatever else a test needs. */
type ProjectFields = Omit<Prisma.AiProjectUncheckedCreateInput, 'workspaceId' | 'brand' | 'id'> & {
  brand?: string;
  id?: string;
};

/** An AI-visibility project of `workspaceId`: brand Acme and a new id unless `fields` give them. */
export function createProject(database: Database, workspaceId: string, fields: ProjectFields) {
  return database.prisma.aiProject.create({
    data: { brand: 'Acme', ...fields, id: fields.id ?? newId('project'), workspaceId },
  });
}

/** The searches' and answers' fixture: two competitors (one with a domain), two models, two locales, an own domain. */
export const CRM_PROJECT = {
  name: 'CRM',
  competitors: ['Globex', 'Initech'],
  models: ['chatgpt', 'gemini'],
  locales: ['en-US', 'de-DE'],
  domains: ['acme.com'],
  competitorDomains: [{ name: 'Globex', domains: ['globex.com'] }],
} satisfies ProjectFields;

/** One series (a model in a locale), no competitors: the fair-share tests' project. */
export const ONE_SERIES_PROJECT = {
  name: 'Held',
  competitors: [],
  models: ['chatgpt'],
  locales: ['en-US'],
  domains: ['acme.com'],
} satisfies ProjectFields;
