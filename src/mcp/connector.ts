// What the rest of the app needs to know about the MCP connector without loading it: its paths
// and its invalidation target. The connector itself (oidc-provider, the MCP SDK, Ajv) is loaded
// on its first request, so instances that never serve MCP do not carry it
// (docs/decisions/mcp-transport-costs.md).
export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_PATHS = [
  '/.well-known/oauth-protected-resource',
  `/.well-known/oauth-protected-resource${MCP_PATH}`,
];

/** Paths the OAuth authorization server answers (from node:http, see authorization-server.ts). */
export const isAuthorizationServerPath = (path: string) =>
  path.startsWith('/oauth/') ||
  path === '/.well-known/openid-configuration' ||
  path === '/.well-known/oauth-authorization-server';

/** The invalidation target that drops every instance's cached MCP token holders. */
export const OAUTH_INVALIDATION_TARGET = 'oauth:*';
