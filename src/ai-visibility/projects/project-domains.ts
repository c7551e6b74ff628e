// A project's own domains and its competitors' (the admin command behind the CLI, the settings JSON and
// the MCP write tools): stored as registrable domains, the way citations are counted.
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { UsageError } from '../../errors/index.js';
import { adminCommand, type Actor } from '../../workspaces/index.js';
import { normaliseDomain, type CompetitorDomains } from '../sources/domains.js';
import { PROMPTS_AND_DOMAINS, workspaceOfProject } from './actor-project.js';

function checkedDomains(domains: readonly string[], what: string): string[] {
  if (domains.length > 50) throw new UsageError(`at most 50 ${what}`);
  return [
    ...new Set(
      domains.map((input) => {
        const domain = normaliseDomain(input);
        if (!domain) throw new UsageError(`${JSON.stringify(input.slice(0, 100))} is not a domain (e.g. example.com)`);
        return domain;
      }),
    ),
  ];
}

/**
 * Sets the brand's own domains and, when given, each competitor's (a tracked competitor's
 * name and its domains; a list replaces the stored one). Domains are stored as registrable
 * domains, the way citations are counted: "https://www.Example.co.uk/" is example.co.uk.
 */
export async function setProjectDomains(
  prisma: PrismaClient,
  input: { projectId: string; domains: string[]; competitorDomains?: CompetitorDomains[] | undefined; actor: Actor },
) {
  const domains = checkedDomains(input.domains, 'domains');
  const project = await workspaceOfProject(prisma, input.projectId, input.actor);
  const competitorDomains = input.competitorDomains?.map((competitor) => {
    if (!project.competitors.includes(competitor.name))
      throw new UsageError(
        `competitor ${competitor.name} is not tracked by the project (tracked: ` +
          `${project.competitors.join(', ') || 'none'})`,
      );
    return { name: competitor.name, domains: checkedDomains(competitor.domains, `domains of ${competitor.name}`) };
  });
  const taken =
    competitorDomains?.flatMap((competitor) =>
      competitor.domains.filter((domain) => domains.includes(domain)).map((domain) => `${domain} (${competitor.name})`),
    ) ?? [];
  if (taken.length) throw new UsageError(`a domain cannot be both the brand's and a competitor's: ${taken.join(', ')}`);
  return adminCommand(
    prisma,
    { workspaceId: project.workspaceId, actor: input.actor },
    PROMPTS_AND_DOMAINS,
    async ({ tx, audit }) => {
      const updated = await tx.aiProject.update({
        where: { id: project.id },
        data: { domains, ...(competitorDomains ? { competitorDomains } : {}) },
        select: { id: true, domains: true, competitorDomains: true },
      });
      await audit('ai_project.domains_set', project.id, {
        domains,
        ...(competitorDomains ? { competitorDomains } : {}),
      });
      return {
        projectId: updated.id,
        domains: updated.domains,
        competitorDomains: updated.competitorDomains as unknown as CompetitorDomains[],
      };
    },
  );
}
