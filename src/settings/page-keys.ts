// The settings page's API keys and webhooks sections.
import { html, type SafeHtml } from '../http/html.js';
import { SCOPES } from '../auth/index.js';
import { WEBHOOK_PLANS } from '../webhooks/index.js';
import { EVENT_TYPES } from '../webhooks/index.js';

import { day, keyStatus, listTable, type FormKit, type SettingsView } from './page-kit.js';

/** API keys: the list, revoking, making one with its scopes. */
export function keysSection(view: SettingsView, kit: FormKit): SafeHtml {
  const { csrf, once, post, typed, checked } = kit;
  return html`<section id="api-keys">
    <h2>API keys</h2>
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
        key.revokedAt ? '' : post(`/api-keys/${key.id}/revoke`, 'Revoke', 'danger'),
      ]),
      'No API keys yet.',
    )}
    <form class="row" method="post" action="/app/settings/api-keys">
            ${csrf}${once()}
            <label
              >Name
              <input
                name="name"
                required
                maxlength="100"
                placeholder="Warehouse sync"
                value="${typed('/api-keys', 'name')}"
            /></label>
            ${SCOPES.map(
              (scope) =>
                html`<label
                  ><span
                    ><input type="checkbox" name="scopes" value="${scope}" ${checked('/api-keys', 'scopes', scope)} />
                    ${scope}</span
                  ></label
                >`,
            )}
            <label
              >Expires (optional) <input type="date" name="expiresAt" value="${typed('/api-keys', 'expiresAt')}"
            /></label>
            <button type="submit">Create key</button>
          </form>
  </section>`;
}

/** One endpoint's row: where it points, whether it is on (and why not), what it hears, its buttons. */
function endpointRow(endpoint: SettingsView['endpoints'][number], { post }: FormKit) {
  return [
    html`<code class="wrap">${endpoint.url}</code
      >${endpoint.description ? html`<div class="muted">${endpoint.description}</div>` : ''}`,
    endpoint.enabled
      ? html`<span class="badge on">enabled</span>`
      : html`<span class="badge off">disabled</span>
          <div class="muted">${endpoint.disabledReason ?? ''}</div>`,
    endpoint.eventTypes.join(', '),
    day(endpoint.createdAt),
    html`${post(`/webhooks/${endpoint.id}/secret`, 'Reveal secret')}
          ${post(`/webhooks/${endpoint.id}/rotate-secret`, 'Rotate secret')}
          ${
            endpoint.enabled
              ? post(`/webhooks/${endpoint.id}/disable`, 'Disable', 'danger')
              : post(`/webhooks/${endpoint.id}/enable`, 'Enable', 'secondary')
          } <a href="/app/settings/webhooks/${endpoint.id}/attempts">Attempts</a>`,
  ];
}

/** Webhook endpoints: the list, their deliveries, adding one. */
export function webhooksSection(view: SettingsView, kit: FormKit): SafeHtml {
  const { csrf, once, typed, checked, planNote } = kit;
  return html`<section id="webhooks">
    <h2>Webhooks</h2>
    ${
      !view.canUseWebhooks
        ? planNote('Webhooks are available', WEBHOOK_PLANS)
        : html` ${listTable(
            ['URL', 'Status', 'Events', 'Created', ''],
            view.endpoints.map((endpoint) => endpointRow(endpoint, kit)),
            'No endpoints yet.',
          )}
          ${html`<form class="row" method="post" action="/app/settings/webhooks">
                    ${csrf}${once()}
                    <label
                      >URL
                      <input
                        type="url"
                        name="url"
                        required
                        placeholder="https://hooks.example.com/signalboard"
                        size="40"
                        value="${typed('/webhooks', 'url')}"
                    /></label>
                    ${EVENT_TYPES.map(
                      (type) =>
                        html`<label
                          ><span
                            ><input
                              type="checkbox"
                              name="eventTypes"
                              value="${type}"
                              ${checked('/webhooks', 'eventTypes', type)}
                            />
                            ${type}</span
                          ></label
                        >`,
                    )}
                    <label
                      >Description
                      <input name="description" maxlength="500" value="${typed('/webhooks', 'description')}"
                    /></label>
                    <button type="submit">Add endpoint</button>
                  </form>
                  <form class="row" method="post" action="/app/settings/webhooks/replay">
                    ${csrf}<label
                      >Replay event
                      <input
                        name="eventId"
                        required
                        placeholder="evt_…"
                        value="${typed('/webhooks/replay', 'eventId')}" /></label
                    ><button type="submit" class="secondary">Replay</button>
                  </form>
                  <form class="row" method="post" action="/app/settings/webhooks/replay-failed">
                    ${csrf}<label
                      >Replay failed deliveries since
                      <input
                        type="date"
                        name="since"
                        required
                        value="${typed('/webhooks/replay-failed', 'since')}" /></label
                    ><button type="submit" class="secondary">Replay failed</button>
                  </form>`}`
    }
  </section>`;
}
