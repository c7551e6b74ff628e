// The header of every settings page (the settings page itself and the pages its links open): the
// workspace, the views menu, the workspace switch, who is signed in and signing out.
import { html, type SafeHtml } from '../http/html.js';
import { CSRF_FIELD, type SessionView } from '../sessions/index.js';
import { viewsMenu, type ViewLinks } from '../views/index.js';
import { planName } from '../workspaces/index.js';

/** What a settings page's header shows besides the session: the views and the person's other workspaces. */
export interface PageChrome {
  session: SessionView;
  /** The workspace's reports and projects, for the header's menu of views. */
  views: ViewLinks;
  workspaces: { slug: string; name: string }[];
}

/** Who is signed in, in which workspace: the header's left and right. */
export const workspaceOfSession = (session: SessionView) =>
  html`<span class="brand">Signalboard</span><span
      >${session.workspaceName} <span class="muted">(${planName(session.plan)})</span></span
    >`;
export const signedInAs = ({ email, role }: SessionView) => html`<span class="muted">${email} · ${role}</span>`;

const workspaceOption = (workspace: PageChrome['workspaces'][number], current: string) =>
  html`<option value="${workspace.slug}" ${workspace.slug === current ? html` selected` : ''}>
    ${workspace.name}
  </option>`;

export function settingsHeader({ session, views, workspaces }: PageChrome): SafeHtml {
  const csrf = html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}" />`;
  return html`<header>
    ${workspaceOfSession(session)}${viewsMenu(views)}
    ${
      workspaces.length > 1
        ? html`<form class="inline" method="post" action="/app/session/workspace">
            ${csrf}<select name="workspace" aria-label="Workspace">
              ${workspaces.map((workspace) => workspaceOption(workspace, session.workspaceSlug))}
            </select>
            <button type="submit" class="secondary">Switch</button>
          </form>`
        : ''
    } <span class="spacer"></span>${signedInAs(session)}
    <form class="inline" method="post" action="/app/logout">
      ${csrf}<button type="submit" class="secondary">Sign out</button>
    </form>
  </header>`;
}
