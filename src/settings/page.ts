// The settings page: one server-rendered HTML document of forms. Owners and admins see every
// section; members see their own account only, as /graphql and MCP refuse them the workspace's
// admin data. No script; every form carries the CSRF token.
import { html, page, type SafeHtml } from '../http/html.js';

import { readsAdminData } from './admin-data.js';
import { formKit, type SettingsView } from './page-kit.js';
import { settingsHeader } from './page-header.js';
import { keysSection, webhooksSection } from './page-keys.js';
import { ssoSection } from './page-sso.js';
import { accountSection, auditSection, mcpSection } from './page-account.js';

export type { Notice, SettingsView } from './page-kit.js';

const MEMBER_NOTE =
  'You are a member of this workspace: its owners and admins manage its API keys, webhooks, single sign-on, ' +
  'MCP connector and audit log.';

/** The page's sections, top to bottom: an owner's or admin's, and a member's. */
const SECTIONS = [keysSection, webhooksSection, ssoSection, mcpSection, accountSection, auditSection];
const MEMBER_SECTIONS = [accountSection];

/** What the last form sent did: a new secret, shown this once, or a sentence. */
function noticeBlock(notice: NonNullable<SettingsView['notice']>): SafeHtml {
  if (notice.kind === 'secret') {
    const secret = html`<code class="secret" data-testid="secret">${notice.secret}</code>`;
    return html`<div class="notice ok" role="status"><strong>${notice.title}</strong>${secret}</div>`;
  }
  const role = notice.kind === 'error' ? 'alert' : 'status';
  return html`<div class="notice ${notice.kind}" role="${role}">${notice.title}</div>`;
}

export function settingsPage(view: SettingsView): SafeHtml {
  const kit = formKit(view);
  const admin = readsAdminData(view.session);

  const notice = view.notice ? noticeBlock(view.notice) : '';

  return page(
    'Settings',
    html`<h1>Settings</h1>
      ${notice} ${admin ? '' : html`<div class="notice" role="note">${MEMBER_NOTE}</div>`}
      ${(admin ? SECTIONS : MEMBER_SECTIONS).map((section) => section(view, kit))}`,
    { header: settingsHeader(view) },
  );
}
