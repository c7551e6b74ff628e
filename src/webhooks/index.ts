// The front door of webhooks/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export {
  WEBHOOK_PLANS,
  createEndpoint,
  listAttempts,
  listEndpoints,
  parseEventTypes,
  revealSecret,
  rotateSecret,
  setEnabled,
  webhookDepsOf,
} from './endpoints.js';
export { replayEvent, replayFailed, sendTestEvent } from './replays.js';
export type { EndpointView, WebhookDeps } from './endpoints.js';
export type { AttemptView } from './webhook-repository.js';
export { EVENT_TYPES, appendEvents } from './outbox.js';
export {
  CREATE_ENDPOINT_INPUT,
  ENDPOINT_DESCRIPTION,
  endpointToCreate,
  REPLAY_FAILED_INPUT,
  replaySince,
} from './endpoint-input.js';
export type { OutboxEvent } from './outbox.js';
