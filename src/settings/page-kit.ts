// What every section of the settings page is drawn with: the view it shows, and the form kit
// (the CSRF token in every form, what a failed form keeps, the plan notes).
import { html, type SafeHtml } from '../http/html.js';
import type { Plan } from '../db/generated/prisma/enums.js';
import type { FormFields } from '../http/forms.js';
import { planList, planName } from '../workspaces/index.js';
import type { AuditView } from '../audit/index.js';
import type { SessionView } from '../sessions/index.js';
import { CSRF_FIELD } from '../sessions/index.js';
import { FORM_ID_FIELD, newFormId } from './form-id.js';
import type { ConnectionView } from '../sso/index.js';
import type { DomainView } from '../sso/index.js';
import type { EndpointView } from '../webhooks/index.js';
import type { GrantView } from '../mcp/index.js';
import type { PageChrome } from './page-header.js';

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

export interface SettingsView extends PageChrome {
  notice: Notice | null;
  /** The form that failed (its action path and fields), shown again with what was typed. */
  submitted: { action: string; fields: FormFields } | null;
  keys: KeyRow[];
  endpoints: EndpointView[];
  connection: ConnectionView | null;
  domains: DomainView[];
  writeActions: boolean;
  audit: AuditView[];
  connectedApps: GrantView[];
  canUseWebhooks: boolean;
  canUseSso: boolean;
  /** The workspace has an identity provider and this session did not come through it. */
  canLinkSso: boolean;
  redirectUri: string;
  mcpUrl: string;
  requireSso: boolean;
}

export const day = (date: Date | string | null) =>
  date ? new Date(date).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';

export function keyStatus(key: KeyRow): SafeHtml {
  if (key.revokedAt) return html`<span class="badge off">revoked</span>`;
  if (key.expiresAt && key.expiresAt.getTime() < Date.now()) return html`<span class="badge off">expired</span>`;
  return html`<span class="badge on">active</span>`;
}

type Cell = SafeHtml | string;

/**
 * A settings table, its key columns (name, status) first and its actions last. On a phone each
 * row is a card whose cells name their column (http/html.ts), so nothing hides to the right.
 */
export function listTable(head: string[], rows: Cell[][], empty: Cell): SafeHtml {
  const label = (index: number) => head[index] || 'Actions';
  const body = rows.length
    ? rows.map(
        (row) =>
          html`<tr>
            ${row.map((cell, index) => html`<td data-label="${label(index)}">${cell}</td>`)}
          </tr> `,
      )
    : html`<tr>
        <td colspan="${head.length}" class="muted">${empty}</td>
      </tr>`;
  return html`<table class="list">
    <thead>
      <tr>
        ${head.map((name) => html`<th>${name}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${body}
    </tbody>
  </table>`;
}

/** A form that flips one yes/no setting: it posts the opposite of `on` as `field`. */
export const toggleForm = (csrf: SafeHtml, action: string, field: string, on: boolean, label: string, style: string) =>
  html`<form class="row" method="post" action="${action}">
    ${csrf}<input type="hidden" name="${field}" value="${on ? 'false' : 'true'}" /><button
      type="submit"
      class="${style}"
    >
      ${label}
    </button>
  </form>`;

/** The pieces every form of the page is made of, bound to one view. */
export interface FormKit {
  session: SessionView;
  csrf: SafeHtml;
  /** A create form's one-time id (action.ts formIdOf), new on each call. */
  once(): SafeHtml;
  post(action: string, label: string, style?: string, extra?: SafeHtml | string): SafeHtml;
  typed(action: string, name: string, fallback?: string): string;
  checked(action: string, name: string, value: string): SafeHtml | string;
  planNote(what: string, plans: readonly Plan[]): SafeHtml;
}

export function formKit(view: SettingsView): FormKit {
  const { session } = view;
  const csrf = html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}" />`;
  const post = (action: string, label: string, style = 'secondary', extra: SafeHtml | string = '') =>
    html`<form class="inline" method="post" action="/app/settings${action}">
      ${csrf}${extra}<button type="submit" class="${style}">${label}</button>
    </form>`;
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
    html`<p class="muted">
      ${what} on the ${planList(plans, 'and')} plans; this workspace is on <strong>${planName(session.plan)}</strong>.
      Ask the workspace owner to upgrade.
    </p>`;
  const once = () => html`<input type="hidden" name="${FORM_ID_FIELD}" value="${newFormId()}" />`;
  return { session, csrf, once, post, typed, checked, planNote };
}
