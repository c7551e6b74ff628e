// Write tools of the Webhooks toolset: endpoints, test events and replays (the signing secret never reaches the model).
import { z } from 'zod/v4';
import { actorOf, declare, type WriteTool } from './declare.js';
import {
  CREATE_ENDPOINT_INPUT,
  createEndpoint,
  endpointToCreate,
  replayEvent,
  REPLAY_FAILED_INPUT,
  replayFailed,
  replaySince,
  sendTestEvent,
  setEnabled,
} from '../../../webhooks/index.js';

export const WEBHOOK_WRITE_TOOLS: WriteTool[] = [
  declare({
    name: 'create_webhook_endpoint',
    toolset: 'webhooks',
    destructive: false,
    idempotent: false,
    title: 'Create webhook endpoint',
    description:
      'Register an https URL to receive scan.completed and/or signal.created events (signed, ' +
      'Standard Webhooks). Its signing secret is shown in Settings, not here.',
    input: CREATE_ENDPOINT_INPUT,
    output: { endpoint: 'object' },
    run: async (deps, args) => {
      const created = await createEndpoint(deps.webhooks, {
        ...endpointToCreate(args),
        workspaceId: deps.principal.workspaceId,
        actor: actorOf(deps),
      });
      // The signing secret is shown once, in Settings; it never reaches a model.
      return { endpoint: Object.fromEntries(Object.entries(created).filter(([key]) => key !== 'secret')) };
    },
  }),
  declare({
    name: 'update_webhook_endpoint',
    toolset: 'webhooks',
    destructive: true,
    idempotent: true,
    title: 'Enable or disable webhook endpoint',
    description:
      'Switch a webhook endpoint (whe_…) on or off; a re-enabled endpoint receives events created from then on.',
    input: { id: z.string().describe('whe_…'), enabled: z.boolean() },
    output: { endpoint: 'object' },
    run: async (deps, args) => ({ endpoint: await setEnabled(deps.webhooks, args.id, args.enabled, actorOf(deps)) }),
  }),
  declare({
    name: 'send_test_event',
    toolset: 'webhooks',
    destructive: false,
    idempotent: false,
    openWorld: true,
    title: 'Send test event',
    description:
      'Send a signed test event (data.test = true) to one enabled endpoint (whe_…) only, ' +
      'to check it receives and verifies deliveries; list_webhook_attempts shows the outcome.',
    input: { id: z.string().describe('whe_…') },
    output: { test: 'object' },
    run: async (deps, args) => ({ test: await sendTestEvent(deps.webhooks, args.id, actorOf(deps)) }),
  }),
  declare({
    name: 'replay_webhook_event',
    toolset: 'webhooks',
    destructive: true,
    idempotent: false,
    openWorld: true,
    title: 'Replay webhook event',
    description:
      'Send one event (evt_…) again, with the same webhook-id, to every endpoint that should ' +
      'receive it or to one endpoint.',
    input: { eventId: z.string().describe('evt_…'), endpointId: z.string().optional().describe('whe_…') },
    output: { replay: 'object' },
    run: async (deps, args) => ({
      replay: await replayEvent(deps.webhooks, args.eventId, args.endpointId ?? null, actorOf(deps)),
    }),
  }),
  declare({
    name: 'replay_failed_webhooks',
    toolset: 'webhooks',
    destructive: true,
    idempotent: false,
    openWorld: true,
    title: 'Replay failed webhooks',
    description:
      'Send again every delivery of the workspace that failed since a time (ISO 8601), ' +
      'each with its whole retry schedule.',
    input: REPLAY_FAILED_INPUT,
    output: { replay: 'object' },
    run: async (deps, args) => ({
      replay: await replayFailed(deps.webhooks, deps.principal.workspaceId, replaySince(args), actorOf(deps)),
    }),
  }),
];
