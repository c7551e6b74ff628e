// The front door of sso/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export {
  SSO_PLANS,
  getConnection,
  identityProviderFetch,
  identityProviderPolicy,
  requiresSso,
  setConnection,
  setRequireSso,
} from './connections.js';
export type { ConnectionView } from './connections.js';
export { claimDomain, listDomains, txtResolver, verifyDomain } from './domains.js';
export type { DomainView } from './domains.js';
export { SSO_CALLBACK_PATH, approveLink, createSso } from './oidc.js';
