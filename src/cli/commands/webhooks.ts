import type { Command } from 'commander';
import { findWorkspace } from '../../workspaces/service.js';
import { intBounds } from '../../errors/index.js';
import {
  createEndpoint,
  listAttempts,
  listEndpoints,
  parseEventTypes,
  revealSecret,
  rotateSecret,
  setEnabled,
  type WebhookDeps,
} from '../../webhooks/endpoints.js';
import type { AttemptView } from '../../webhooks/webhook-repository.js';
import { replayEvent, replayFailed } from '../../webhooks/replays.js';
import type { Actor } from '../../workspaces/actor.js';
import {
  CREATE_ENDPOINT_INPUT,
  endpointToCreate,
  REPLAY_FAILED_INPUT,
  replaySince,
} from '../../webhooks/endpoint-input.js';
import { output, actorOf, AS_OPTION, boundedOption, cliInput, webhookDeps, type JsonOption } from '../context.js';

const attemptLine = (a: AttemptView) =>
  `${a.createdAt.toISOString()}  ${a.eventId}  #${a.attempt}  ${a.responseStatus ?? '---'}  ${a.latencyMs} ms  ` +
  (a.error ?? 'ok') +
  (a.nextAttemptAt ? `  next ${a.nextAttemptAt.toISOString()}` : '');

/** Attempts the CLI lists, newest first. */
const ATTEMPTS_LISTED = intBounds(1, 1000, 100);

export function registerWebhooksCommands(program: Command) {
  const webhooks = program
    .command('webhooks')
    .description('Webhook endpoints, their secrets, attempts and replays (pro plans and above)');
  registerEndpointCommands(webhooks);
  registerSecretAndSwitchCommands(webhooks);
  registerDeliveryCommands(webhooks);
}

/** Creating and listing endpoints. */
function registerEndpointCommands(webhooks: Command) {
  webhooks
    .command('create')
    .requiredOption('--workspace <slug>')
    .requiredOption('--url <url>', 'https URL that receives POSTed events')
    .option('--events <list>', 'comma-separated: scan.completed,signal.created (default: all)')
    .option('--description <text>')
    .option(...AS_OPTION)
    .option('--json')
    .action(
      async (
        options: { workspace: string; url: string; events?: string; description?: string; as?: string } & JsonOption,
      ) => {
        const input = cliInput(CREATE_ENDPOINT_INPUT, {
          url: options.url,
          eventTypes: parseEventTypes(options.events),
          description: options.description,
        });
        const deps = await webhookDeps();
        const workspace = await findWorkspace(deps.prisma, options.workspace);
        const endpoint = await createEndpoint(deps, {
          ...endpointToCreate(input),
          workspaceId: workspace.id,
          actor: actorOf(options),
        });
        const { id, url, eventTypes, enabled, secret } = endpoint;
        output(
          options,
          { id, url, eventTypes, enabled, secret },
          `Created webhook endpoint ${id} for ${eventTypes.join(', ')}. ` +
            `Its signing secret (also readable later with \`webhooks secret ${id}\`):\n${secret}`,
        );
      },
    );
  webhooks
    .command('list')
    .requiredOption('--workspace <slug>')
    .option('--json')
    .action(async (options: { workspace: string } & JsonOption) => {
      const deps = await webhookDeps();
      const list = await listEndpoints(deps, (await findWorkspace(deps.prisma, options.workspace)).id);
      output(
        options,
        list,
        list
          .map(
            (e) =>
              `${e.id}  ${e.enabled ? 'enabled ' : 'disabled'}  ${e.url}  [${e.eventTypes.join(', ')}]` +
              (e.disabledReason && !e.enabled ? `  (${e.disabledReason})` : ''),
          )
          .join('\n') || 'No webhook endpoints.',
      );
    });
}

/** Commands on one endpoint: its secret, enabling and disabling it. */
function registerSecretAndSwitchCommands(webhooks: Command) {
  /** One declaration per command that acts on one endpoint as an owner/admin (or the operator). */
  function endpointCommand<T>(
    name: string,
    run: (deps: WebhookDeps, endpointId: string, actor: Actor) => Promise<T>,
    human: (result: T) => string,
  ) {
    webhooks
      .command(`${name} <endpointId>`)
      .option(...AS_OPTION)
      .option('--json')
      .action(async (endpointId: string, options: { as?: string } & JsonOption) => {
        const result = await run(await webhookDeps(), endpointId, actorOf(options));
        output(options, result, human(result));
      });
  }
  endpointCommand('secret', revealSecret, (revealed) => revealed.secret);
  endpointCommand(
    'enable',
    (deps, id, actor) => setEnabled(deps, id, true, actor),
    (endpoint) => `${endpoint.id} is enabled: it receives events created from now on.`,
  );
  endpointCommand(
    'disable',
    (deps, id, actor) => setEnabled(deps, id, false, actor),
    (endpoint) => `${endpoint.id} is disabled; its pending deliveries are marked failed (replay them later).`,
  );
  endpointCommand(
    'rotate-secret',
    rotateSecret,
    (rotated) =>
      `New secret for ${rotated.id} ` +
      `(the previous one also signs until ${rotated.previousSecretExpiresAt}):\n${rotated.secret}`,
  );
}

/** What was delivered and sending it again. */
function registerDeliveryCommands(webhooks: Command) {
  webhooks
    .command('attempts <endpointId>')
    .option('--limit <n>', `newest attempts to show (1-${ATTEMPTS_LISTED.maximum}, default ${ATTEMPTS_LISTED.default})`)
    .option(...AS_OPTION)
    .option('--json')
    .action(async (endpointId: string, options: { limit?: string; as?: string } & JsonOption) => {
      const limit = boundedOption(options.limit, ATTEMPTS_LISTED, '--limit');
      const attempts = await listAttempts(await webhookDeps(), endpointId, actorOf(options), limit);
      output(options, attempts, attempts.map(attemptLine).join('\n') || 'No attempts yet.');
    });
  webhooks
    .command('replay <eventId>')
    .option('--endpoint <id>', 'only to this endpoint (default: every enabled endpoint subscribed to the event type)')
    .option(...AS_OPTION)
    .option('--json')
    .action(async (eventId: string, options: { endpoint?: string; as?: string } & JsonOption) => {
      const replayed = await replayEvent(await webhookDeps(), eventId, options.endpoint ?? null, actorOf(options));
      output(
        options,
        replayed,
        `Replaying ${replayed.eventId} to ${replayed.endpoints.length} endpoint(s) with the same webhook-id.`,
      );
    });
  webhooks
    .command('replay-failed')
    .requiredOption('--workspace <slug>')
    .requiredOption('--since <iso>', 'deliveries that failed at or after this time')
    .option(...AS_OPTION)
    .option('--json')
    .action(async (options: { workspace: string; since: string; as?: string } & JsonOption) => {
      const input = cliInput(REPLAY_FAILED_INPUT, { since: options.since });
      const deps = await webhookDeps();
      const workspace = await findWorkspace(deps.prisma, options.workspace);
      const result = await replayFailed(deps, workspace.id, replaySince(input), actorOf(options));
      output(options, result, `Replaying ${result.replayed} failed deliveries with their original webhook-ids.`);
    });
}
