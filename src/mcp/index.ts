// The front door of mcp/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { MCP_PATH, PROTECTED_RESOURCE_PATHS } from './connector.js';
export { listGrants, revokeGrant } from './oauth/grants.js';
export type { GrantView } from './oauth/grants.js';
export { mcpWriteActions, setMcpWriteActions } from './tools/write-actions.js';
