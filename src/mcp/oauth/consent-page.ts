// The consent page of the MCP connector's authorization server. A registered client's name is
// its own claim, so the page leads with where the person will be sent (the redirect host), says
// the app is not verified and when it registered. A client identified by a metadata document
// (client-metadata-documents.ts) has proven one thing: its id URL's host serves its metadata;
// the page names that host as verified, and still leads with the redirect host. Then the exact
// permissions for the chosen workspace.
import { html, page, type SafeHtml } from '../../http/html.js';
import { CSRF_FIELD } from '../../sessions/index.js';
import type { Plan } from '../../db/generated/prisma/enums.js';
import { planList, planName } from '../../workspaces/index.js';
import type { Toolset } from '../tools/toolsets.js';

/** What each toolset lets an app read, in a person's words. */
const TOOLSET_LABELS: Record<Toolset, string> = {
  core: 'who you are, the workspace and its limits, search',
  clients: 'clients and their data connections',
  reports: 'reports and their definitions',
  report_data: 'report numbers, KPIs and period comparisons',
  visibility: 'AI-visibility projects, metrics and scans',
  prompts: 'tracked prompts, their topics and tags',
  answers: 'AI answers and the sources they cite',
  signals: 'signals and signal rules',
  webhooks: 'webhook endpoints and deliveries',
  admin: 'members, API keys (never secrets), connected apps and the audit log',
};

export interface ConsentWorkspace {
  id: string;
  name: string;
  plan: Plan;
  writeActions: boolean;
}

export interface ConsentView {
  action: string;
  csrfToken: string;
  email: string;
  clientName: string;
  clientId: string;
  redirectHost: string;
  registeredAt: Date | null;
  /** The client_id URL's host, when the client was identified by a metadata document fetched from it. */
  verifiedHost: string | null;
  stayConnected: boolean;
  workspaces: ConsentWorkspace[];
  /** The toolsets the app asked for; the person may untick some. */
  toolsets: readonly Toolset[];
  writesRequested: boolean;
  selectedWorkspaceId: string;
  paidPlans: readonly Plan[];
}

/** Who the app is: proven by its metadata document's host, or only its own claim. */
const identityNotice = (view: ConsentView) =>
  view.verifiedHost
    ? html`<div class="notice" role="note">
        This app is identified by <strong>${view.verifiedHost}</strong>, which publishes its description. Continue only
        if you started this from an app you trust and it sends you back to <strong>${view.redirectHost}</strong>.
      </div>`
    : html`<div class="notice error" role="note">
        <strong>Not verified by Signalboard.</strong> The name below is the app's own claim. Continue only if you
        started this from an app you trust and it sends you back to <strong>${view.redirectHost}</strong>.
      </div>`;

/** Where it sends the person, what it calls itself, its verified domain or registration date, and who signs in. */
function clientTable(view: ConsentView): SafeHtml {
  const registered = view.registeredAt ? view.registeredAt.toISOString().slice(0, 10) : 'unknown';
  const client = html`<span class="muted">(client ${view.clientId})</span>`;
  return html`<table>
    <tr>
      <th>Sends you back to</th>
      <td><strong>${view.redirectHost}</strong></td>
    </tr>
    <tr>
      <th>Calls itself</th>
      <td>${view.clientName}</td>
    </tr>
    ${
      view.verifiedHost
        ? html`<tr>
            <th>Verified domain</th>
            <td><strong>${view.verifiedHost}</strong> ${client}</td>
          </tr>`
        : html`<tr>
            <th>Registered</th>
            <td>${registered} ${client}</td>
          </tr>`
    }
    <tr>
      <th>Signed in as</th>
      <td>${view.email}</td>
    </tr>
  </table>`;
}

const workspaceOption = (workspace: ConsentWorkspace, selectedId: string) =>
  html`<option value="${workspace.id}" ${workspace.id === selectedId ? html` selected` : ''}>
    ${workspace.name} (${planName(workspace.plan)}) — ${workspace.writeActions ? 'read and write' : 'read only'}
  </option>`;

const toolsetChoice = (toolset: Toolset) =>
  html`<label class="check"
    ><input type="checkbox" name="toolset" value="${toolset}" checked /> <span>${TOOLSET_LABELS[toolset]}</span></label
  >`;

const writesChoice = (view: ConsentView) =>
  view.writesRequested
    ? html`<fieldset>
        <legend>It asks to make changes</legend>
        <label class="check"
          ><input type="checkbox" name="writes" checked />
          <span
            >create and change what those tools cover (clients, reports, projects, prompts, signal rules, webhooks) —
            <strong>only in a workspace marked "read and write"</strong> (an admin switches write actions on in
            Settings; it is off unless they did)</span
          ></label
        >
      </fieldset>`
    : html`<p class="muted">It does not ask to make changes.</p>`;

const STAY_CONNECTED = html`<p>
  It will stay connected without asking again until you disconnect it (refresh tokens, 30 days at most between uses).
</p>`;

/** The choices: the workspace, the toolsets (untick to narrow), changes, then allow or deny. */
const consentForm = (view: ConsentView) =>
  html`<form method="post" action="${view.action}">
    <input type="hidden" name="${CSRF_FIELD}" value="${view.csrfToken}" />
    <label
      >Workspace
      <select name="workspace">
        ${view.workspaces.map((workspace) => workspaceOption(workspace, view.selectedWorkspaceId))}
      </select></label
    >
    <fieldset>
      <legend>It asks to read (untick what it should not see)</legend>
      ${view.toolsets.map(toolsetChoice)}
    </fieldset>
    ${writesChoice(view)} ${view.stayConnected ? STAY_CONNECTED : ''}
    <button type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
  </form>`;

export function consentPage(view: ConsentView): SafeHtml {
  if (!view.workspaces.length) {
    return page(
      'Connect an app',
      html`<div class="login">
        <section>
          <h1>Not available</h1>
          <p>The MCP connector needs the ${planList(view.paidPlans, 'or')} plan; none of your workspaces is on one.</p>
        </section>
      </div>`,
    );
  }
  return page(
    'Connect an app',
    html`<div class="login">
      <section>
        <h1>Connect an app to Signalboard</h1>
        ${identityNotice(view)} ${clientTable(view)} ${consentForm(view)}
        <p class="muted">You can disconnect it at any time in Settings → MCP connector.</p>
      </section>
    </div>`,
  );
}
