// What the header's "Views" menu lists: the workspace's reports and AI-visibility projects.
import { html, type SafeHtml } from '../http/html.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { projectRepository } from '../ai-visibility/index.js';
import { reportRepository } from '../reports/index.js';
import { answersPagePath, reportPagePath, visibilityPagePath } from './paths.js';

/** Entries the menu lists of each kind (the newest first, as the lists are ordered). */
const MENU_ENTRIES = 20;

export interface ViewLinks {
  reports: { id: string; name: string }[];
  projects: { id: string; name: string }[];
}

export async function viewLinks(scope: WorkspaceScope): Promise<ViewLinks> {
  const [reports, projects] = await Promise.all([
    reportRepository(scope).list(null, MENU_ENTRIES),
    projectRepository(scope).list(null, MENU_ENTRIES),
  ]);
  return {
    reports: reports.map(({ id, name }) => ({ id, name })),
    projects: projects.map(({ id, name }) => ({ id, name })),
  };
}

const projectItem = (project: { id: string; name: string }) => {
  const visibility = html`<a href="${visibilityPagePath(project.id)}"><bdi>${project.name}</bdi></a>`;
  return html`<li>${visibility} · <a href="${answersPagePath(project.id)}">answers</a></li>`;
};

/** A menu that needs no script: a disclosure with links, each name isolated (bdi) from its neighbours' direction. */
export function viewsMenu({ reports, projects }: ViewLinks): SafeHtml {
  if (!reports.length && !projects.length) return html``;
  return html`<details class="views-menu"><summary>Views</summary><ul>
${reports.map((report) => html`<li><a href="${reportPagePath(report.id)}"><bdi>${report.name}</bdi></a></li>`)}
${projects.map(projectItem)}
</ul></details>`;
}
