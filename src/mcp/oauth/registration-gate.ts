// The gate before oidc-provider's dynamic registration (RFC 7591): the metadata within the
// limits of client-registration.ts, stripped of the resource's own scopes, and at most
// REGISTRATION_POLICY.limit registrations an hour from one address. A refusal is written in
// OAuth's error shape (RFC 7591 §3.2.2), which registering clients read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { reserveAttempts, type CounterPolicy } from '../../db/attempt-counters.js';
import { oauthFailure } from '../../doors/index.js';
import { writeNodeAnswer } from './node-requests.js';
import { registrableMetadata, registrationProblem } from './client-registration.js';

/** Dynamic registrations per caller address. */
const REGISTRATION_POLICY: CounterPolicy = { limit: 10, windowMs: 3_600_000 };

/** OAuth's JSON error (RFC 7591 §3.2.2), as the boundary shapes it. */
const oauthError = (
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
) => writeNodeAnswer(res, oauthFailure(status, error, description, headers));

/** True when the registration may go on to the provider (its body replaced by what may be registered). */
export async function admitRegistration(
  deps: { pool: pg.Pool; addressOf(req: IncomingMessage): string },
  req: IncomingMessage & { body?: Buffer },
  res: ServerResponse,
): Promise<boolean> {
  let metadata: unknown;
  try {
    metadata = JSON.parse(req.body!.toString('utf8'));
  } catch {
    oauthError(res, 400, 'invalid_client_metadata', 'the body must be JSON');
    return false;
  }
  const refusal = registrationProblem(metadata);
  if (refusal) {
    oauthError(res, 400, refusal.error, refusal.description);
    return false;
  }
  req.body = Buffer.from(JSON.stringify(registrableMetadata(metadata as Record<string, unknown>)));
  const key = `oauth:register:${deps.addressOf(req)}`;
  const counted = (await reserveAttempts(deps.pool, [{ key, policy: REGISTRATION_POLICY }])).get(key)!;
  if (counted.count <= REGISTRATION_POLICY.limit) return true;
  const wait = Math.max(1, Math.ceil((counted.windowEndsAt.getTime() - Date.now()) / 1000));
  const description = `at most ${REGISTRATION_POLICY.limit} registrations an hour from one address`;
  oauthError(res, 429, 'rate_limited', description, { 'Retry-After': String(wait) });
  return false;
}
