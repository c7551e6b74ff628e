// Limits on dynamic client registration (RFC 7591), checked before the provider sees the
// request, so that a registered client cannot be dressed up for consent phishing or bloat the
// store: at most 5 redirect URIs, each https or a loopback http address (native apps), a short
// name, the code flow only. Pure.
import { isResourceOnlyScope } from '../tools/toolsets.js';

export const MAX_REDIRECT_URIS = 5;
export const MAX_CLIENT_NAME_LENGTH = 100;
const MAX_URI_LENGTH = 512;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const ALLOWED_GRANTS = new Set(['authorization_code', 'refresh_token']);

export interface RegistrationProblem {
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  description: string;
}

const problem = (error: RegistrationProblem['error'], description: string): RegistrationProblem => ({
  error,
  description,
});

export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH)
    return `redirect URIs are strings of at most ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash) return `${uri} must not carry a fragment`;
  if (url.username || url.password) return `${uri} must not carry credentials`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${uri} must use https (http only on 127.0.0.1, [::1] or localhost)`;
}

/** Why this registration request is refused, or null. */
export function registrationProblem(metadata: unknown): RegistrationProblem | null {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata))
    return problem('invalid_client_metadata', 'the body must be a JSON object');
  const body = metadata as Record<string, unknown>;
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0)
    return problem('invalid_redirect_uri', 'redirect_uris must list at least one URI');
  if (uris.length > MAX_REDIRECT_URIS)
    return problem('invalid_redirect_uri', `at most ${MAX_REDIRECT_URIS} redirect URIs`);
  for (const uri of uris) {
    const refusal = redirectUriProblem(uri);
    if (refusal) return problem('invalid_redirect_uri', refusal);
  }
  if (
    body.client_name !== undefined &&
    (typeof body.client_name !== 'string' || body.client_name.length > MAX_CLIENT_NAME_LENGTH)
  ) {
    return problem('invalid_client_metadata', `client_name has at most ${MAX_CLIENT_NAME_LENGTH} characters`);
  }
  for (const [field, allowed] of [
    ['response_types', new Set(['code'])],
    ['grant_types', ALLOWED_GRANTS],
  ] as const) {
    const values = body[field];
    if (values === undefined) continue;
    if (!Array.isArray(values) || values.some((value) => !allowed.has(value as never)))
      return problem(
        'invalid_client_metadata',
        `${field} may only be ${[...allowed].join(', ')} (the code flow with PKCE)`,
      );
  }
  for (const field of ['client_uri', 'logo_uri', 'policy_uri', 'tos_uri']) {
    if (
      body[field] !== undefined &&
      (typeof body[field] !== 'string' || (body[field] as string).length > MAX_URI_LENGTH)
    )
      return problem('invalid_client_metadata', `${field} has at most ${MAX_URI_LENGTH} characters`);
  }
  return null;
}

/**
 * The metadata as the provider registers it: the toolset and write scopes (`mcp:…`) belong to
 * the resource, not to the client, so a registered `scope` keeps only the others (SDK clients
 * register what a 401 asked for, and the provider refuses scopes it does not know as its own).
 */
export function registrableMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  if (typeof metadata.scope !== 'string') return metadata;
  const kept = metadata.scope.split(' ').filter((scope) => scope && !isResourceOnlyScope(scope));
  const rest = { ...metadata };
  delete rest.scope;
  return kept.length ? { ...rest, scope: kept.join(' ') } : rest;
}
