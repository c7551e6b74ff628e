// The front door of auth/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export type { Admitted } from './admission.js';
export { bucketPolicies } from './admission.js';
export { bearerChallenge, bearerToken, KEY_PREFIX } from './api-key-format.js';
export { createApiKey, listApiKeys, revokeApiKey } from './key-management.js';
export { CREATE_KEY_INPUT, keyToCreate } from './key-input.js';
export { invalidationCounter } from './invalidation.js';
export { adminRefusal, hasScope, isWorkspaceAdmin, READ_SCOPE, requireScope, scopeRefusal, SCOPES } from './scopes.js';
export type { ReadableKind, Scope } from './scopes.js';
export type { Principal } from './principal.js';
