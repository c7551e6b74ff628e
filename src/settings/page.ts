// The settings page: one server-rendered HTML document of forms. Owners and admins see the
// forms; members see the same page read-only. No script; every form carries the CSRF token.
import { html, page, type SafeHtml } from '../http/html.js';
import { SCOPES } from '../auth/index.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import type { FormFields } from '../http/forms.js';
import { planList, planName } from '../workspaces/index.js';
import type { AuditView } from '../audit/index.js';
import type { SessionView } from '../sessions/index.js';
import { CSRF_FIELD } from '../sessions/index.js';
import type { ConnectionView } from '../sso/index.js';
import { SSO_PLANS } from '../sso/index.js';
import type { DomainView } from '../sso/index.js';
import type { EndpointView } from '../webhooks/index.js';
import { WEBHOOK_PLANS } from '../webhooks/index.js';
import { EVENT_TYPES } from '../webhooks/index.js';
import type { GrantView } from '../mcp/index.js';
import { viewsMenu, type ViewLinks } from '../views/index.js';

export type Notice = { kind: 'ok' | 'error'; title: string } | { kind: 'secret'; title: string; secret: string };

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface SettingsView {
  session: SessionView;
  /** The workspace's reports and projects, for the header's menu of views. */
  views: ViewLinks;
  notice: Notice | null;
  /** The form that failed (its action path and fields), shown again with what was typed. */
  submitted: { action: string; fields: FormFields } | null;
  keys: KeyRow[];
  endpoints: EndpointView[];
  connection: ConnectionView | null;
  domains: DomainView[];
  writeActions: boolean;
  audit: AuditView[];
  workspaces: { slug: string; name: string }[];
  connectedApps: GrantView[];
  canUseWebhooks: boolean;
  canUseSso: boolean;
  redirectUri: string;
  mcpUrl: string;
  requireSso: boolean;
}

const day = (date: Date | string | null) =>
  date ? new Date(date).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';

function keyStatus(key: KeyRow): SafeHtml {
  if (key.revokedAt) return html`<span class="badge off">revoked</span>`;
  if (key.expiresAt && key.expiresAt.getTime() < Date.now()) return html`<span class="badge off">expired</span>`;
  return html`<span class="badge on">active</span>`;
}

type Cell = SafeHtml | string;

/**
 * A settings table, its key columns (name, status) first and its actions last. On a phone each
 * row is a card whose cells name their column (http/html.ts), so nothing hides to the right.
 */
function listTable(head: string[], rows: Cell[][], empty: Cell): SafeHtml {
  const label = (index: number) => head[index] || 'Actions';
  const body = rows.length
    ? rows.map(
        (row) => html`<tr>${row.map((cell, index) => html`<td data-label="${label(index)}">${cell}</td>`)}</tr>\n`,
      )
    : html`<tr><td colspan="${head.length}" class="muted">${empty}</td></tr>`;
  return html`<table class="list"><thead><tr>${head.map((name) => html`<th>${name}</th>`)}</tr></thead><tbody>
${body}
</tbody></table>`;
}

export function settingsPage(view: SettingsView): SafeHtml {
  const { session } = view;
  const admin = session.role !== 'member';
  const csrf = html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}">`;
  const post = (action: string, label: string, style = 'secondary', extra: SafeHtml | string = '') =>
    html`<form class="inline" method="post" action="/app/settings${action}">${csrf}${extra}<button type="submit" class="${style}">${label}</button></form>`;
  // A failed form keeps what was typed; password and client-secret fields are never filled in.
  const typed = (action: string, name: string, fallback = '') => {
    const value = view.submitted?.action === action ? view.submitted.fields[name] : undefined;
    return typeof value === 'string' ? value : fallback;
  };
  const checked = (action: string, name: string, value: string) => {
    if (view.submitted?.action !== action) return html` checked`;
    const chosen = view.submitted.fields[name];
    return (Array.isArray(chosen) ? chosen.includes(value) : chosen === value) ? html` checked` : '';
  };
  const planNote = (what: string, plans: readonly Plan[]) =>
    html`<p class="muted">${what} on the ${planList(plans, 'and')} plans; this workspace is on <strong>${planName(session.plan)}</strong>. Ask the workspace owner to upgrade.</p>`;

  const header = html`<header><span class="brand">Signalboard</span><span>${session.workspaceName} <span class="muted">(${planName(session.plan)})</span></span>${viewsMenu(view.views)}
${view.workspaces.length > 1 ? html`<form class="inline" method="post" action="/app/session/workspace">${csrf}<select name="workspace" aria-label="Workspace">${view.workspaces.map((workspace) => html`<option value="${workspace.slug}"${workspace.slug === session.workspaceSlug ? html` selected` : ''}>${workspace.name}</option>`)}</select> <button type="submit" class="secondary">Switch</button></form>` : ''}
<span class="spacer"></span><span class="muted">${session.email} · ${session.role}</span>
<form class="inline" method="post" action="/app/logout">${csrf}<button type="submit" class="secondary">Sign out</button></form></header>`;

  const notice = view.notice
    ? view.notice.kind === 'secret'
      ? html`<div class="notice ok" role="status"><strong>${view.notice.title}</strong><code class="secret" data-testid="secret">${view.notice.secret}</code></div>`
      : html`<div class="notice ${view.notice.kind}" role="${view.notice.kind === 'error' ? 'alert' : 'status'}">${view.notice.title}</div>`
    : '';

  const keys = html`<section id="api-keys"><h2>API keys</h2>
${listTable(
  ['Name', 'Status', 'Key id', 'Scopes', 'Created', 'Last used', 'Expires', ''],
  view.keys.map((key) => [
    key.name,
    keyStatus(key),
    html`<code>${key.id}</code>`,
    key.scopes.join(', '),
    day(key.createdAt),
    day(key.lastUsedAt),
    day(key.expiresAt),
    admin && !key.revokedAt ? post(`/api-keys/${key.id}/revoke`, 'Revoke', 'danger') : '',
  ]),
  'No API keys yet.',
)}
${
  admin
    ? html`<form class="row" method="post" action="/app/settings/api-keys">${csrf}
<label>Name <input name="name" required maxlength="100" placeholder="Warehouse sync" value="${typed('/api-keys', 'name')}"></label>
${SCOPES.map((scope) => html`<label><span><input type="checkbox" name="scopes" value="${scope}"${checked('/api-keys', 'scopes', scope)}> ${scope}</span></label>`)}
<label>Expires (optional) <input type="date" name="expiresAt" value="${typed('/api-keys', 'expiresAt')}"></label>
<button type="submit">Create key</button></form>`
    : ''
}
</section>`;

  const webhooks = html`<section id="webhooks"><h2>Webhooks</h2>
${
  !view.canUseWebhooks
    ? planNote('Webhooks are available', WEBHOOK_PLANS)
    : html`
${listTable(
  ['URL', 'Status', 'Events', 'Created', ''],
  view.endpoints.map((endpoint) => [
    html`<code class="wrap">${endpoint.url}</code>${endpoint.description ? html`<div class="muted">${endpoint.description}</div>` : ''}`,
    endpoint.enabled
      ? html`<span class="badge on">enabled</span>`
      : html`<span class="badge off">disabled</span><div class="muted">${endpoint.disabledReason ?? ''}</div>`,
    endpoint.eventTypes.join(', '),
    day(endpoint.createdAt),
    admin
      ? html`${post(`/webhooks/${endpoint.id}/secret`, 'Reveal secret')} ${post(`/webhooks/${endpoint.id}/rotate-secret`, 'Rotate secret')}
${post(`/webhooks/${endpoint.id}/${endpoint.enabled ? 'disable' : 'enable'}`, endpoint.enabled ? 'Disable' : 'Enable', endpoint.enabled ? 'danger' : 'secondary')}
<a href="/app/settings/webhooks/${endpoint.id}/attempts">Attempts</a>`
      : '',
  ]),
  'No endpoints yet.',
)}
${
  admin
    ? html`<form class="row" method="post" action="/app/settings/webhooks">${csrf}
<label>URL <input type="url" name="url" required placeholder="https://hooks.example.com/signalboard" size="40" value="${typed('/webhooks', 'url')}"></label>
${EVENT_TYPES.map((type) => html`<label><span><input type="checkbox" name="eventTypes" value="${type}"${checked('/webhooks', 'eventTypes', type)}> ${type}</span></label>`)}
<label>Description <input name="description" maxlength="500" value="${typed('/webhooks', 'description')}"></label>
<button type="submit">Add endpoint</button></form>
<form class="row" method="post" action="/app/settings/webhooks/replay">${csrf}<label>Replay event <input name="eventId" required placeholder="evt_…" value="${typed('/webhooks/replay', 'eventId')}"></label><button type="submit" class="secondary">Replay</button></form>
<form class="row" method="post" action="/app/settings/webhooks/replay-failed">${csrf}<label>Replay failed deliveries since <input type="date" name="since" required value="${typed('/webhooks/replay-failed', 'since')}"></label><button type="submit" class="secondary">Replay failed</button></form>`
    : ''
}`
}
</section>`;

  const sso = html`<section id="sso"><h2>Single sign-on</h2>
${
  !view.canUseSso
    ? planNote('Single sign-on is available', SSO_PLANS)
    : html`
<p class="muted">OpenID Connect. Register this redirect URI with your identity provider: <code>${view.redirectUri}</code></p>
${view.connection ? html`<p>Provider: <code>${view.connection.issuer}</code>, client <code>${view.connection.clientId}</code> <span class="muted">(updated ${day(view.connection.updatedAt)})</span></p>` : html`<p class="muted">No identity provider configured.</p>`}
${
  admin
    ? html`<form class="row" method="post" action="/app/settings/sso">${csrf}
<label>Issuer <input type="url" name="issuer" required value="${typed('/sso', 'issuer', view.connection?.issuer)}" size="32"></label>
<label>Client id <input name="clientId" required value="${typed('/sso', 'clientId', view.connection?.clientId)}"></label>
<label>Client secret <input type="password" name="clientSecret" autocomplete="off" placeholder="${view.connection ? 'unchanged' : ''}"></label>
<button type="submit">Save provider</button></form>`
    : ''
}
<h2 style="margin-top:16px">Domains</h2>
${listTable(
  ['Domain', 'Status', 'TXT record to publish', ''],
  view.domains.map((domain) => [
    domain.domain,
    domain.verified ? html`<span class="badge on">verified</span>` : html`<span class="badge off">unverified</span>`,
    html`<code class="wrap">${domain.txtName}</code><br><code class="wrap">${domain.txtValue}</code>`,
    admin && !domain.verified ? post(`/sso/domains/${domain.id}/verify`, 'Verify now') : '',
  ]),
  'No domains claimed.',
)}
${admin ? html`<form class="row" method="post" action="/app/settings/sso/domains">${csrf}<label>Domain <input name="domain" required placeholder="example.com" value="${typed('/sso/domains', 'domain')}"></label><button type="submit">Claim domain</button></form>` : ''}
<h2 style="margin-top:16px">Sign-in policy</h2>
<p>Single sign-on is <strong>${view.requireSso ? 'required' : 'optional'}</strong> for members whose address is in a verified domain. Owners always keep their password, the way in when the identity provider fails.</p>
${admin ? html`<form class="row" method="post" action="/app/settings/sso/require">${csrf}<input type="hidden" name="requireSso" value="${view.requireSso ? 'false' : 'true'}"><button type="submit" class="secondary">${view.requireSso ? 'Make SSO optional' : 'Require SSO'}</button></form>` : ''}
${
  session.role === 'owner'
    ? html`<p class="muted">A member who already has an account links it to the company sign-in once: they do it themselves below, or you approve it here for their next company sign-in (7 days).</p>
<form class="row" method="post" action="/app/settings/sso/link-approvals">${csrf}<label>Member's email <input type="email" name="email" required value="${typed('/sso/link-approvals', 'email')}"></label><button type="submit" class="secondary">Approve link</button></form>`
    : ''
}
${view.connection && !session.ssoWorkspaceId ? html`<form class="row" method="post" action="/app/sso/link">${csrf}<button type="submit" class="secondary">Link company sign-in to my account</button></form>` : ''}`
}
</section>`;

  const account = html`<section id="account"><h2>Your password</h2>
<form class="row" method="post" action="/app/password">${csrf}
<label>Current password <input type="password" name="currentPassword" autocomplete="current-password" required></label>
<label>New password <input type="password" name="password" autocomplete="new-password" minlength="12" required></label>
<button type="submit" class="secondary">Change password</button></form>
<p class="muted">Changing it signs you out everywhere else.</p></section>`;

  const mcp = html`<section id="mcp"><h2>MCP connector</h2>
<p>Write actions for AI assistants are <strong>${view.writeActions ? 'on' : 'off'}</strong>. While off, assistants can only read.</p>
${admin ? html`<form class="row" method="post" action="/app/settings/mcp">${csrf}<input type="hidden" name="writeActions" value="${view.writeActions ? 'false' : 'true'}"><button type="submit" class="${view.writeActions ? 'danger' : 'secondary'}">${view.writeActions ? 'Turn write actions off' : 'Turn write actions on'}</button></form>` : ''}
<h2 style="margin-top:16px">Connected apps</h2>
${listTable(
  ['App', 'Connected by', 'Since', ''],
  view.connectedApps.map((app) => [
    app.clientName,
    app.userEmail ?? '—',
    day(app.createdAt),
    admin ? post(`/mcp/grants/${app.id}/revoke`, 'Disconnect', 'danger') : '',
  ]),
  html`No AI assistant is connected. Point one at <code>${view.mcpUrl}</code>.`,
)}
</section>`;

  const audit = html`<section id="audit-log"><h2>Audit log</h2>
${listTable(
  ['Time', 'Action', 'Actor', 'Target'],
  view.audit.map((entry) => [
    day(entry.createdAt),
    html`<code>${entry.action}</code>`,
    entry.actorEmail ?? entry.actor,
    html`<code>${entry.target}</code>`,
  ]),
  'Nothing yet.',
)}</section>`;

  return page(
    'Settings',
    html`<h1>Settings</h1>${notice}
${admin ? '' : html`<div class="notice" role="note">You are a member of this workspace: settings are read-only for you. Owners and admins can change them.</div>`}
${keys}${webhooks}${sso}${mcp}${account}${audit}`,
    { header },
  );
}
