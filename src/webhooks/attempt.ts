// One attempt of a webhook delivery the worker claimed: its body signed with the endpoint's
// secrets, sent, its outcome recorded, and the endpoint disabled when it is gone or has failed
// every attempt for DISABLE_AFTER_FAILING_MS.
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import { recordAudit } from '../audit/index.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { recordOutcome, type Claimed } from './delivery-steps.js';
import { applyEnabled, secretContext } from './endpoints.js';
import { attemptOutcome, type AttemptOutcome } from './retry-schedule.js';
import type { AttemptResult, Sender } from './sender.js';
import { webhookHeaders } from './signing.js';
import { inSpan, SpanKind } from '../observability/tracing.js';

/** An endpoint failing every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;

function signingSecrets(box: SecretBox, delivery: Claimed): string[] {
  const secrets = [box.open(delivery.secret, secretContext(delivery.endpoint_id, 'secret'))];
  if (
    delivery.previous_secret &&
    delivery.previous_secret_expires_at &&
    delivery.previous_secret_expires_at.getTime() > Date.now()
  ) {
    secrets.push(box.open(delivery.previous_secret, secretContext(delivery.endpoint_id, 'previous_secret')));
  }
  return secrets;
}

/** What sending a claimed delivery needs: the worker's pool, sender and settings. */
export interface AttemptDeps {
  pool: pg.Pool;
  sender: Sender;
  box: SecretBox;
  config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE'>;
  logger: Logger;
  onOutcome?(outcome: AttemptOutcome['kind']): void;
}

/** One attempt of a claimed delivery: signed and sent, its outcome recorded, its endpoint disabled when it is gone. */
export async function attemptDelivery(deps: AttemptDeps, delivery: Claimed) {
  const { pool, sender, config } = deps;
  // The body is the same on every attempt; the timestamp header is the attempt's (receivers reject stale ones).
  const body = JSON.stringify({
    type: delivery.type,
    timestamp: delivery.created_at.toISOString(),
    data: delivery.payload,
  });
  let result: AttemptResult;
  try {
    result = await inSpan(
      'POST webhook',
      { 'signalboard.event_id': delivery.event_id, 'signalboard.attempt': delivery.attempt_count },
      () =>
        sender.send(
          delivery.url,
          webhookHeaders(signingSecrets(deps.box, delivery), delivery.event_id, Math.floor(Date.now() / 1000), body),
          body,
        ),
      { kind: SpanKind.CLIENT, startsTrace: true },
    );
  } catch (error) {
    result = {
      status: null,
      latencyMs: 0,
      retryAfter: null,
      error: error instanceof Error ? error.message : String(error),
    };
  }
  const outcome = attemptOutcome(result, delivery.attempt_count, config.WEBHOOK_RETRY_SCHEDULE, new Date());
  const failingSince = await recordOutcome(pool, delivery, result, outcome);
  deps.onOutcome?.(outcome.kind);
  if (outcome.kind === 'gone') await disable(deps, delivery, 'the endpoint answered 410 Gone');
  else if (failingSince && Date.now() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS)
    await disable(deps, delivery, `every attempt failed since ${failingSince.toISOString()}`);
}

async function disable({ pool, logger }: AttemptDeps, delivery: Claimed, reason: string) {
  await applyEnabled(pool, delivery.endpoint_id, false, reason);
  await recordAudit(pool, {
    workspaceId: delivery.workspace_id,
    actor: 'system',
    action: 'webhook_endpoint.disabled',
    target: delivery.endpoint_id,
    details: { reason },
  });
  logger.warn({ endpointId: delivery.endpoint_id, reason }, 'webhook endpoint disabled');
}
