// The settings page's sections about the person and the workspace's record: MCP, the account, the audit log.
import { html, type SafeHtml } from '../http/html.js';

import { day, listTable, type FormKit, type SettingsView, toggleForm } from './page-kit.js';

/** MCP: the write actions assistants may take, and the apps connected. */
export function mcpSection(view: SettingsView, kit: FormKit): SafeHtml {
  const { csrf, post } = kit;
  const on = view.writeActions;
  const label = on ? 'Turn write actions off' : 'Turn write actions on';
  const writeActionsToggle = toggleForm(
    csrf,
    '/app/settings/mcp',
    'writeActions',
    on,
    label,
    on ? 'danger' : 'secondary',
  );
  return html`<section id="mcp">
    <h2>MCP connector</h2>
    <p>
      Write actions for AI assistants are <strong>${view.writeActions ? 'on' : 'off'}</strong>. While off, assistants
      can only read.
    </p>
    ${writeActionsToggle}
    <h2 style="margin-top:16px">Connected apps</h2>
    ${listTable(
      ['App', 'Connected by', 'Since', ''],
      view.connectedApps.map((app) => [
        app.clientName,
        app.userEmail ?? '—',
        day(app.createdAt),
        post(`/mcp/grants/${app.id}/revoke`, 'Disconnect', 'danger'),
      ]),
      html`No AI assistant is connected. Point one at <code>${view.mcpUrl}</code>.`,
    )}
  </section>`;
}

const LINK_LABEL = 'Link company sign-in to my account';
const linkForm = (csrf: SafeHtml) =>
  html`<form class="row" method="post" action="/app/sso/link">
    ${csrf}<button type="submit" class="secondary">${LINK_LABEL}</button>
  </form>`;

/** The signed-in person's own account: changing the password, linking the company sign-in to it. */
export function accountSection(view: SettingsView, kit: FormKit): SafeHtml {
  const { csrf } = kit;
  return html`<section id="account">
    <h2>Your password</h2>
    <form class="row" method="post" action="/app/password">
      ${csrf}
      <label
        >Current password <input type="password" name="currentPassword" autocomplete="current-password" required
      /></label>
      <label
        >New password <input type="password" name="password" autocomplete="new-password" minlength="12" required
      /></label>
      <button type="submit" class="secondary">Change password</button>
    </form>
    <p class="muted">Changing it signs you out everywhere else.</p>
    ${view.canLinkSso ? linkForm(csrf) : ''}
  </section>`;
}

/** The audit log: the latest changes. */
export function auditSection(view: SettingsView): SafeHtml {
  return html`<section id="audit-log">
    <h2>Audit log</h2>
    ${listTable(
      ['Time', 'Action', 'Actor', 'Target'],
      view.audit.map((entry) => [
        day(entry.createdAt),
        html`<code>${entry.action}</code>`,
        entry.actorEmail ?? entry.actor,
        html`<code>${entry.target}</code>`,
      ]),
      'Nothing yet.',
    )}
  </section>`;
}
