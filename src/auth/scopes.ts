// What a credential may do: the scopes an API key carries, which scope each kind of thing needs
// to be read, and who counts as a workspace admin. Every door asks these (Pothos `authScopes`,
// node(id), search, the v1 handler, MCP's tool access) rather than spelling a check of its own.
import { ApiError } from '../errors/index.js';
import { bearerChallenge } from './api-key-format.js';

export const SCOPES = ['clients:read', 'reports:read', 'ai_visibility:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope a key or token needs to read each kind of thing (by id, in a list, in search hits). */
export const READ_SCOPE = {
  client: 'clients:read',
  report: 'reports:read',
  project: 'ai_visibility:read',
  prompt: 'ai_visibility:read',
  scan: 'ai_visibility:read',
  answer: 'ai_visibility:read',
  signal: 'ai_visibility:read',
} as const satisfies Record<string, Scope>;
export type ReadableKind = keyof typeof READ_SCOPE;

/** A principal, as far as its scopes go. */
type Credential = { scopes: readonly Scope[] };

export const hasScope = (principal: Credential, scope: Scope) => principal.scopes.includes(scope);

/**
 * Owners and admins signed in (web session or MCP connection): they may read the workspace's
 * people, keys and audit log. An API key is never an admin, whatever its scopes.
 */
export const isWorkspaceAdmin = (principal: { kind: string; role?: string }) =>
  principal.kind !== 'api_key' && principal.role !== 'member';

/**
 * The refusal of admin data (people, keys, the audit log, webhooks) to whoever `isWorkspaceAdmin`
 * refuses: a forbidden, not a missing scope, since no scope grants it. An API key is told the way in.
 */
export function adminRefusal(principal: { kind: string }): ApiError {
  const onward = principal.kind === 'api_key' ? '; an API key never may, so sign in to the web app as one' : '';
  return new ApiError('forbidden', `Only owners and admins of the workspace may read this${onward}.`);
}

/**
 * The refusal of a call that lacks `scope`. Named as v1 names it ("lacks the reports:read
 * scope") unless `reading` says what was asked for ("Reading rep_… needs …"); `challenge` adds
 * RFC 6750's WWW-Authenticate, which an HTTP door sends with it.
 */
export function scopeRefusal(scope: Scope, options: { reading?: string; challenge?: boolean } = {}): ApiError {
  const message = options.reading
    ? `Reading ${options.reading} needs the ${scope} scope.`
    : `This API key lacks the ${scope} scope.`;
  return new ApiError(
    'insufficient_scope',
    message,
    options.challenge ? { headers: bearerChallenge('insufficient_scope', scope) } : {},
  );
}

/** Throws `scopeRefusal(scope, options)` unless the credential carries `scope`. */
export function requireScope(principal: Credential, scope: Scope, options?: Parameters<typeof scopeRefusal>[1]) {
  if (!hasScope(principal, scope)) throw scopeRefusal(scope, options);
}
