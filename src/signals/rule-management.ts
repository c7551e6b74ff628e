// Reading and changing a project's signal rules: the domain code behind the CLI and the MCP write
// tool (rule-input.ts is their one input). Changes are owners'/admins' and audited.
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { isIdOf } from '../db/ids.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand } from '../workspaces/index.js';
import { UsageError } from '../errors/index.js';
import { effectiveRules, isSignalKind, RULE_SPECS, SIGNAL_KINDS, thresholdProblem, type SignalRule } from './rules.js';

export interface RuleView extends SignalRule {
  defaultThreshold: number;
  meaning: string;
  isDefault: boolean;
}

async function projectOf(prisma: PrismaClient, projectId: string) {
  if (!isIdOf('project', projectId)) throw new UsageError(`${projectId} is not a project id (prj_…)`);
  const project = await prisma.aiProject.findUnique({
    where: { id: projectId },
    select: { id: true, workspaceId: true },
  });
  if (!project) throw new UsageError(`no AI-visibility project ${projectId}`, 'not_found');
  return project;
}

export async function listRules(prisma: PrismaClient, projectId: string): Promise<RuleView[]> {
  const project = await projectOf(prisma, projectId);
  const stored = await prisma.signalRule.findMany({ where: { projectId: project.id } });
  const storedKinds = new Set(stored.map((rule) => rule.kind));
  return effectiveRules(stored.filter((rule) => isSignalKind(rule.kind)) as SignalRule[]).map((rule) => ({
    ...rule,
    defaultThreshold: RULE_SPECS[rule.kind].defaultThreshold,
    meaning: RULE_SPECS[rule.kind].meaning,
    isDefault: !storedKinds.has(rule.kind),
  }));
}

export async function setRule(
  prisma: PrismaClient,
  input: { projectId: string; kind: string; threshold: number; enabled: boolean; actor: Actor },
): Promise<RuleView> {
  if (!isSignalKind(input.kind))
    throw new UsageError(`unknown rule kind ${input.kind}; kinds: ${SIGNAL_KINDS.join(', ')}`);
  const problem = thresholdProblem(input.kind, input.threshold);
  if (problem) throw new UsageError(problem);
  const project = await projectOf(prisma, input.projectId);
  await adminCommand(
    prisma,
    { workspaceId: project.workspaceId, actor: input.actor },
    { what: 'change signal rules' },
    async ({ tx, audit }) => {
      const data = { threshold: input.threshold, enabled: input.enabled, updatedAt: new Date() };
      await tx.signalRule.upsert({
        where: { projectId_kind: { projectId: project.id, kind: input.kind } },
        create: { projectId: project.id, workspaceId: project.workspaceId, kind: input.kind, ...data },
        update: data,
      });
      await audit('signal_rule.set', project.id, {
        kind: input.kind,
        threshold: input.threshold,
        enabled: input.enabled,
      });
    },
  );
  return (await listRules(prisma, project.id)).find((rule) => rule.kind === input.kind)!;
}
