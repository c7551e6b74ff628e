// The settings page's single sign-on section.
import { html, type SafeHtml } from '../http/html.js';
import { SSO_PLANS } from '../sso/index.js';

import { day, listTable, toggleForm, type FormKit, type SettingsView } from './page-kit.js';

/** Single sign-on: the connection, its domains, requiring it. */
const connectionLine = (connection: SettingsView['connection']) => {
  if (!connection) return html`<p class="muted">No identity provider configured.</p>`;
  const provider = html`Provider: <code>${connection.issuer}</code>, client <code>${connection.clientId}</code>`;
  return html`<p>${provider} <span class="muted">(updated ${day(connection.updatedAt)})</span></p>`;
};

/** The identity provider's issuer, client id and secret (never filled in again). */
function providerForm(view: SettingsView, { csrf, typed }: FormKit): SafeHtml {
  return html`<form class="row" method="post" action="/app/settings/sso">
    ${csrf}
    <label
      >Issuer
      <input type="url" name="issuer" required value="${typed('/sso', 'issuer', view.connection?.issuer)}" size="32"
    /></label>
    <label
      >Client id <input name="clientId" required value="${typed('/sso', 'clientId', view.connection?.clientId)}"
    /></label>
    <label
      >Client secret
      <input type="password" name="clientSecret" autocomplete="off" placeholder="${view.connection ? 'unchanged' : ''}"
    /></label>
    <button type="submit">Save provider</button>
  </form>`;
}

export function ssoSection(view: SettingsView, kit: FormKit): SafeHtml {
  const { session, csrf, post, typed, planNote } = kit;
  const requireLabel = view.requireSso ? 'Make SSO optional' : 'Require SSO';
  const requireToggle = toggleForm(
    csrf,
    '/app/settings/sso/require',
    'requireSso',
    view.requireSso,
    requireLabel,
    'secondary',
  );
  return html`<section id="sso">
    <h2>Single sign-on</h2>
    ${
      !view.canUseSso
        ? planNote('Single sign-on is available', SSO_PLANS)
        : html` <p class="muted">
              OpenID Connect. Register this redirect URI with your identity provider: <code>${view.redirectUri}</code>
            </p>
            ${connectionLine(view.connection)} ${providerForm(view, kit)}
            <h2 style="margin-top:16px">Domains</h2>
            ${listTable(
              ['Domain', 'Status', 'TXT record to publish', ''],
              view.domains.map((domain) => [
                domain.domain,
                domain.verified
                  ? html`<span class="badge on">verified</span>`
                  : html`<span class="badge off">unverified</span>`,
                html`<code class="wrap">${domain.txtName}</code><br /><code class="wrap">${domain.txtValue}</code>`,
                domain.verified ? '' : post(`/sso/domains/${domain.id}/verify`, 'Verify now'),
              ]),
              'No domains claimed.',
            )}
            ${html`<form class="row" method="post" action="/app/settings/sso/domains">
                    ${csrf}<label
                      >Domain
                      <input
                        name="domain"
                        required
                        placeholder="example.com"
                        value="${typed('/sso/domains', 'domain')}" /></label
                    ><button type="submit">Claim domain</button>
                  </form>`}
            <h2 style="margin-top:16px">Sign-in policy</h2>
            <p>
              Single sign-on is <strong>${view.requireSso ? 'required' : 'optional'}</strong> for members whose address
              is in a verified domain. Owners always keep their password, the way in when the identity provider fails.
            </p>
            ${requireToggle}
            ${
              session.role === 'owner'
                ? html`<p class="muted">
                      A member who already has an account links it to the company sign-in once: they do it themselves
                      below, or you approve it here for their next company sign-in (7 days).
                    </p>
                    <form class="row" method="post" action="/app/settings/sso/link-approvals">
                      ${csrf}<label
                        >Member's email
                        <input
                          type="email"
                          name="email"
                          required
                          value="${typed('/sso/link-approvals', 'email')}" /></label
                      ><button type="submit" class="secondary">Approve link</button>
                    </form>`
                : ''
            }`
    }
  </section>`;
}
