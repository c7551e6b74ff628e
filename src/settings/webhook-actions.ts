// Settings actions for webhook endpoints: create, reveal and rotate secrets, enable, attempts, replays.
import { listField, textField } from '../http/forms.js';
import { commandInput } from '../errors/command-input.js';
import {
  CREATE_ENDPOINT_INPUT,
  createEndpoint,
  endpointToCreate,
  listAttempts,
  listEndpoints,
  parseEventTypes,
  replayEvent,
  REPLAY_FAILED_INPUT,
  replayFailed,
  replaySince,
  revealSecret,
  rotateSecret,
  setEnabled,
  webhookDepsOf,
  type WebhookDeps,
} from '../webhooks/index.js';
import { attemptsPage } from './page-attempts.js';
import {
  adminWorkspaceOf,
  blankAsAbsent,
  createForm,
  ID,
  onlyFields,
  workspaceOf,
  type SettingsAction,
  type SettingsCall,
  type SettingsDeps,
} from './action.js';

export const settingsWebhookDeps = (deps: SettingsDeps): WebhookDeps =>
  webhookDepsOf(deps.config, { prisma: deps.prisma, pool: deps.pool, box: deps.box });

export function webhookActions(deps: SettingsDeps): SettingsAction[] {
  const webhooks = settingsWebhookDeps(deps);
  return [...endpointActions(webhooks), ...secretActions(webhooks), ...deliveryActions(webhooks)];
}

/** Listing and creating endpoints, switching one on or off. */
function endpointActions(webhooks: WebhookDeps): SettingsAction[] {
  return [
    {
      method: 'GET',
      path: '/webhooks',
      run: async (call) => ({ data: await listEndpoints(webhooks, adminWorkspaceOf(call)) }),
    },
    {
      method: 'POST',
      path: '/webhooks',
      run: async (call) => {
        const form = createForm(call, CREATE_ENDPOINT_INPUT);
        const input = commandInput(CREATE_ENDPOINT_INPUT, {
          url: textField(call.fields, 'url', { required: true }),
          eventTypes: parseEventTypes(listField(call.fields, 'eventTypes')?.join(',')),
          description: textField(call.fields, 'description') ?? undefined,
        });
        const endpoint = await createEndpoint(webhooks, {
          ...endpointToCreate(input),
          workspaceId: workspaceOf(call),
          actor: call.actor,
          ...form,
        });
        return {
          data: endpoint,
          notice: {
            kind: 'secret',
            title: `Webhook endpoint ${endpoint.url} created. Its signing secret:`,
            secret: endpoint.secret,
          },
        };
      },
    },
    ...(['enable', 'disable'] as const).map((verb) => ({
      method: 'POST' as const,
      path: `/webhooks/${ID}/${verb}`,
      run: async (call: SettingsCall) => {
        const endpoint = await setEnabled(webhooks, call.params[0]!, verb === 'enable', call.actor);
        return {
          data: endpoint,
          notice: { kind: 'ok' as const, title: `${endpoint.url} ${endpoint.enabled ? 'enabled' : 'disabled'}.` },
        };
      },
    })),
  ];
}

/** An endpoint's signing secret: shown again, or rotated. */
function secretActions(webhooks: WebhookDeps): SettingsAction[] {
  return [
    {
      method: 'POST',
      path: `/webhooks/${ID}/secret`,
      run: async (call) => {
        const revealed = await revealSecret(webhooks, call.params[0]!, call.actor);
        return {
          data: revealed,
          notice: { kind: 'secret', title: `Signing secret of ${revealed.id}:`, secret: revealed.secret },
        };
      },
    },
    {
      method: 'POST',
      path: `/webhooks/${ID}/rotate-secret`,
      run: async (call) => {
        const rotated = await rotateSecret(webhooks, call.params[0]!, call.actor);
        return {
          data: rotated,
          notice: {
            kind: 'secret',
            title: `New secret of ${rotated.id}; the previous one also signs until ${rotated.previousSecretExpiresAt}.`,
            secret: rotated.secret,
          },
        };
      },
    },
  ];
}

/** What was delivered, and sending it again. */
function deliveryActions(webhooks: WebhookDeps): SettingsAction[] {
  return [
    {
      method: 'GET',
      path: `/webhooks/${ID}/attempts`,
      drawsPage: true,
      run: async (call) => {
        const attempts = await listAttempts(webhooks, call.params[0]!, call.actor);
        return { data: attempts, page: (header) => attemptsPage(header, call.params[0]!, attempts) };
      },
    },
    {
      method: 'POST',
      path: '/webhooks/replay',
      run: async (call) => {
        onlyFields(call, ['eventId', 'endpointId']);
        const replayed = await replayEvent(
          webhooks,
          textField(call.fields, 'eventId', { required: true })!,
          textField(call.fields, 'endpointId'),
          call.actor,
        );
        return {
          data: replayed,
          notice: {
            kind: 'ok',
            title: `Event ${replayed.eventId} is sent again to ${replayed.endpoints.length} endpoint(s).`,
          },
        };
      },
    },
    {
      method: 'POST',
      path: '/webhooks/replay-failed',
      run: async (call) => {
        onlyFields(call, Object.keys(REPLAY_FAILED_INPUT));
        const input = commandInput(REPLAY_FAILED_INPUT, { since: blankAsAbsent(call.fields.since) });
        const result = await replayFailed(webhooks, workspaceOf(call), replaySince(input), call.actor);
        return { data: result, notice: { kind: 'ok', title: `${result.replayed} failed deliveries are sent again.` } };
      },
    },
  ];
}
