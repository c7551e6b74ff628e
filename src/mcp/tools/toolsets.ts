// Toolsets: the catalogue's tools in groups, chosen per connection by URL or headers as GitHub's
// MCP server does — `/mcp` (the default toolsets), `/mcp/x/<toolset>[,<toolset>…]`, `/mcp/x/all`,
// `…/readonly`; or `X-MCP-Toolsets` and `X-MCP-Readonly: true`. What a token sees depends only
// on these, its consent and the workspace's write switch, never on earlier requests. Pure. Each tool
// declares its own toolset where it is defined (operation-tools.ts, write-tools/, app-views.ts).
import { ApiError } from '../../errors/index.js';
import { decodePath } from '../../http/request-path.js';
import { MCP_SCOPE } from '../oauth/oauth-accounts.js';

export const TOOLSETS = [
  'core',
  'clients',
  'reports',
  'report_data',
  'visibility',
  'prompts',
  'answers',
  'signals',
  'webhooks',
  'admin',
] as const;
export type Toolset = (typeof TOOLSETS)[number];

export const DEFAULT_TOOLSETS: readonly Toolset[] = [
  'core',
  'clients',
  'reports',
  'report_data',
  'visibility',
  'signals',
];

export interface ToolSelection {
  toolsets: ReadonlySet<Toolset>;
  readonly: boolean;
}

export const isToolset = (name: string): name is Toolset => (TOOLSETS as readonly string[]).includes(name);

function parseToolsets(list: string, source: string): Set<Toolset> {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.includes('all')) return new Set(TOOLSETS);
  const unknown = names.filter((name) => !isToolset(name));
  if (unknown.length || !names.length)
    throw new ApiError(
      'invalid_parameter',
      `${source}: unknown toolset ${unknown.join(', ') || '(none)'}; toolsets: ${TOOLSETS.join(', ')}, or all.`,
    );
  return new Set(names as Toolset[]);
}

/**
 * The selection a request makes: the path below /mcp (`''`, `/readonly`, `/x/<list>`,
 * `/x/<list>/readonly`), then the headers, which narrow or widen the same way. Null for a
 * path that is none of these.
 */
export function toolSelectionOf(subPath: string, headers: Headers): ToolSelection | null {
  const match = /^(?:\/x\/([^/]+))?(\/readonly)?\/?$/.exec(subPath);
  if (!match) return null;
  let toolsets = match[1] ? parseToolsets(decodePath(match[1]), 'the URL') : new Set(DEFAULT_TOOLSETS);
  const header = headers.get('x-mcp-toolsets');
  if (header !== null) toolsets = parseToolsets(header, 'X-MCP-Toolsets');
  const readonly = Boolean(match[2]) || headers.get('x-mcp-readonly')?.trim().toLowerCase() === 'true';
  return { toolsets, readonly };
}

// Consent is carried by the token's scopes: `mcp:<toolset>` for each toolset the person
// allowed and `mcp:write` for write tools. A URL's 401 asks for the scopes of its selection,
// which SDK clients request as they are; the consent page lets the person narrow them.
export const WRITE_SCOPE = `${MCP_SCOPE}:write`;
export const toolsetScope = (toolset: Toolset) => `${MCP_SCOPE}:${toolset}`;
/** Every scope of the MCP resource, in a fixed order. */
export const RESOURCE_SCOPES: readonly string[] = [MCP_SCOPE, ...TOOLSETS.map(toolsetScope), WRITE_SCOPE];

/** The scopes a selection needs (what its 401 asks for). */
export const scopesFor = (selection: ToolSelection): string[] => [
  MCP_SCOPE,
  ...TOOLSETS.filter((toolset) => selection.toolsets.has(toolset)).map(toolsetScope),
  ...(selection.readonly ? [] : [WRITE_SCOPE]),
];

export interface Consent {
  toolsets: ReadonlySet<Toolset>;
  writes: boolean;
}

/** A scope of the resource's own (`mcp:<toolset>`, `mcp:write`), which clients ask for but do not register. */
export const isResourceOnlyScope = (scope: string) => scope.startsWith(`${MCP_SCOPE}:`);
const namesToolsets = (scopes: readonly string[]) => scopes.some(isResourceOnlyScope);

/**
 * What scopes grant. A plain `mcp` (tokens from before toolsets) means what it meant then: the default
 * toolsets, writes included.
 */
export function consentOf(scopes: readonly string[]): Consent {
  if (!namesToolsets(scopes)) return { toolsets: new Set(DEFAULT_TOOLSETS), writes: scopes.includes(MCP_SCOPE) };
  return {
    toolsets: new Set(TOOLSETS.filter((toolset) => scopes.includes(toolsetScope(toolset)))),
    writes: scopes.includes(WRITE_SCOPE),
  };
}

/**
 * An authorization request's plain `mcp`, spelled out as the scopes it stands for, so that the consent
 * can narrow them.
 */
export function explicitScopes(scope: string): string {
  const scopes = scope.split(' ').filter(Boolean);
  if (!scopes.includes(MCP_SCOPE) || namesToolsets(scopes)) return scope;
  return [...scopes, ...DEFAULT_TOOLSETS.map(toolsetScope), WRITE_SCOPE].join(' ');
}

/** The selection as far as the consent reaches: toolsets it did not include are gone, and writes without it. */
export const withinConsent = (selection: ToolSelection, consent: Consent): ToolSelection => ({
  toolsets: new Set([...selection.toolsets].filter((toolset) => consent.toolsets.has(toolset))),
  readonly: selection.readonly || !consent.writes,
});
