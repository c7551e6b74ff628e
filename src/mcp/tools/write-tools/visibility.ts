// Write tools of the Visibility toolset: AI-visibility projects and their domains.
import { z } from 'zod/v4';
import { actorOf, declare, type WriteTool } from './declare.js';
import {
  AI_MODELS,
  archiveProject,
  createProject,
  setProjectDomains,
  updateProject,
} from '../../../ai-visibility/index.js';

const projectFields = {
  name: z.string(),
  brand: z.string().describe('the brand whose mentions are counted'),
  clientId: z.string().nullable().optional(),
  competitors: z.array(z.string()).optional(),
  models: z.array(z.enum(AI_MODELS)),
  locales: z.array(z.string()).describe('BCP 47, e.g. en-US'),
};

export const VISIBILITY_WRITE_TOOLS: WriteTool[] = [
  declare({
    name: 'create_ai_visibility_project',
    toolset: 'visibility',
    destructive: false,
    idempotent: false,
    title: 'Create AI-visibility project',
    description: 'Track a brand (and competitors) in AI assistants for the given models and locales.',
    input: projectFields,
    output: { project: 'object' },
    run: async (deps, args) => ({
      project: await createProject(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        fields: args,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'update_ai_visibility_project',
    toolset: 'visibility',
    destructive: true,
    idempotent: true,
    title: 'Update AI-visibility project',
    description: "Change a project's name, brand, client, competitors, models or locales (only the fields given).",
    input: {
      id: z.string().describe('prj_…'),
      name: z.string().optional(),
      brand: z.string().optional(),
      clientId: z.string().nullable().optional(),
      competitors: z.array(z.string()).optional(),
      models: z.array(z.enum(AI_MODELS)).optional(),
      locales: z.array(z.string()).optional(),
    },
    output: { project: 'object' },
    run: async (deps, { id, ...fields }) => ({
      project: await updateProject(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        projectId: id,
        fields,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'archive_ai_visibility_project',
    toolset: 'visibility',
    destructive: true,
    idempotent: false,
    title: 'Archive AI-visibility project',
    description: 'Archive a project (prj_…): it leaves lists and stops ingesting scans; its data stays.',
    input: { id: z.string().describe('prj_…') },
    output: { project: 'object' },
    run: async (deps, args) => ({
      project: await archiveProject(deps.prisma, {
        workspaceId: deps.principal.workspaceId,
        projectId: args.id,
        actor: actorOf(deps),
      }),
    }),
  }),
  declare({
    name: 'set_project_domains',
    toolset: 'visibility',
    destructive: true,
    idempotent: true,
    title: 'Set project domains',
    description:
      "Set the brand's own domains (citations of these count as owned) and, optionally, " +
      "each tracked competitor's domains. Replaces the given lists.",
    input: {
      projectId: z.string().describe('prj_…'),
      domains: z.array(z.string()).describe('e.g. ["acme.com"]'),
      competitorDomains: z
        .array(z.object({ name: z.string().describe('a tracked competitor'), domains: z.array(z.string()) }))
        .optional(),
    },
    output: { project: 'object' },
    run: async (deps, args) => ({
      project: await setProjectDomains(deps.prisma, {
        projectId: args.projectId,
        domains: args.domains,
        competitorDomains: args.competitorDomains,
        actor: actorOf(deps),
      }),
    }),
  }),
];
