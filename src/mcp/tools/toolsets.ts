// Toolsets: the catalogue's tools in groups, chosen per connection by URL or headers as GitHub's
// MCP server does — `/mcp` (the default toolsets), `/mcp/x/<toolset>[,<toolset>…]`, `/mcp/x/all`,
// `…/readonly`; or `X-MCP-Toolsets` and `X-MCP-Readonly: true`. What a token sees depends only
// on these, its consent and the workspace's write switch, never on earlier requests. Pure.
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

/** The toolset of each tool of the catalogue that is built (the catalogue in docs/mcp.md). */
export const TOOLSET_OF: Readonly<Record<string, Toolset>> = {
  whoami: 'core',
  get_workspace: 'core',
  fetch: 'core',
  search: 'core',
  list_clients: 'clients',
  get_client: 'clients',
  list_client_connections: 'clients',
  create_client: 'clients',
  update_client: 'clients',
  archive_client: 'clients',
  list_reports: 'reports',
  get_report: 'reports',
  describe_metrics: 'reports',
  create_report: 'reports',
  update_report: 'reports',
  update_report_widgets: 'reports',
  archive_report: 'reports',
  add_widget: 'reports',
  remove_widget: 'reports',
  duplicate_report: 'reports',
  get_report_data: 'report_data',
  view_report: 'report_data',
  get_widget_data: 'report_data',
  get_kpi_summary: 'report_data',
  compare_report_periods: 'report_data',
  query_metrics: 'report_data',
  get_top_movers: 'report_data',
  list_ai_visibility_projects: 'visibility',
  get_ai_visibility_project: 'visibility',
  get_ai_visibility_metrics: 'visibility',
  compare_ai_visibility_periods: 'visibility',
  get_competitor_benchmark: 'visibility',
  list_scans: 'visibility',
  get_visibility_trend: 'visibility',
  view_visibility: 'visibility',
  create_ai_visibility_project: 'visibility',
  update_ai_visibility_project: 'visibility',
  set_project_domains: 'visibility',
  archive_ai_visibility_project: 'visibility',
  list_prompts: 'prompts',
  get_prompt_metrics: 'prompts',
  list_topics: 'prompts',
  list_tags: 'prompts',
  add_prompts: 'prompts',
  update_prompts: 'prompts',
  archive_prompts: 'prompts',
  restore_prompts: 'prompts',
  list_answers: 'answers',
  view_answers: 'answers',
  get_answer: 'answers',
  get_cited_domains: 'answers',
  get_cited_urls: 'answers',
  get_citation_gaps: 'answers',
  list_signals: 'signals',
  get_signal: 'signals',
  list_signal_rules: 'signals',
  preview_signal_rule: 'signals',
  set_signal_rule: 'signals',
  acknowledge_signal: 'signals',
  list_webhook_endpoints: 'webhooks',
  list_webhook_attempts: 'webhooks',
  get_webhook_event: 'webhooks',
  create_webhook_endpoint: 'webhooks',
  update_webhook_endpoint: 'webhooks',
  send_test_event: 'webhooks',
  replay_webhook_event: 'webhooks',
  replay_failed_webhooks: 'webhooks',
  list_audit_log: 'admin',
  list_members: 'admin',
  list_api_keys: 'admin',
  list_connected_apps: 'admin',
};

/**
 * Tools that show another toolset's data they cannot be drawn without: refused unless the consent
 * includes it too. The report view lays out a report's definition (its name, widgets, titles and
 * units: get_report's data). Sections a view can leave out are marked in its operation instead
 * (granted-sections.ts).
 */
export const ALSO_NEEDS: Readonly<Record<string, readonly Toolset[]>> = { view_report: ['reports'] };

export interface ToolSelection {
  toolsets: ReadonlySet<Toolset>;
  readonly: boolean;
}

const isToolset = (name: string): name is Toolset => (TOOLSETS as readonly string[]).includes(name);

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

/** Whether a tool belongs to the selection (write tools never in a read-only one). */
export const selects = (selection: ToolSelection, tool: { name: string; write?: true }) =>
  selection.toolsets.has(TOOLSET_OF[tool.name]!) && !(selection.readonly && tool.write);

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

/** What scopes grant. A plain `mcp` (tokens from before toolsets) means what it meant then: the default toolsets, writes included. */
export function consentOf(scopes: readonly string[]): Consent {
  if (!namesToolsets(scopes)) return { toolsets: new Set(DEFAULT_TOOLSETS), writes: scopes.includes(MCP_SCOPE) };
  return {
    toolsets: new Set(TOOLSETS.filter((toolset) => scopes.includes(toolsetScope(toolset)))),
    writes: scopes.includes(WRITE_SCOPE),
  };
}

/** An authorization request's plain `mcp`, spelled out as the scopes it stands for, so that the consent can narrow them. */
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
