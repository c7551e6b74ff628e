// MCP Apps (extension io.modelcontextprotocol/ui, revision 2026-01-26): the report, AI-visibility
// and answers views (views/, web/views/) as ui:// resources, named by the model tools whose
// results they show, with app-only tools (graphql/operations/views/*.graphql) that a view calls
// for its own actions. A client that declares the extension sees the views' metadata and the
// app-only tools in tools/list; any other sees the list it always saw. App-only tools are
// called like any tool: the token's consent and the URL's toolsets bound them.
import path from 'node:path';
import {
  EXTENSION_ID,
  getUiCapability,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { selfContainedDocument, type ViewName } from '../../views/index.js';
import type { ToolsetDeclaration, ToolsetOf } from '../tools/operation-tools.js';

export { EXTENSION_ID as VIEWS_EXTENSION };

export const VIEW_OPERATIONS_DIR = path.resolve(import.meta.dirname, '../../../graphql/operations/views');

interface UiResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  view: ViewName;
}

export const UI_RESOURCES: readonly UiResource[] = [
  {
    uri: 'ui://signalboard/report',
    name: 'report-view',
    title: 'Report',
    description: "A report's KPIs with period deltas, charts and tables; preset and comparison switchable.",
    view: 'report',
  },
  {
    uri: 'ui://signalboard/visibility',
    name: 'visibility-view',
    title: 'AI visibility',
    description:
      'Visibility and share of voice over time per locale and model, brand against competitors, ' +
      'sentiment and cited sources.',
    view: 'visibility',
  },
  {
    uri: 'ui://signalboard/answers',
    name: 'answers-view',
    title: 'Answers',
    description:
      "Prompts with their totals, and the models' answers page by page with mentions highlighted and citations.",
    view: 'answers',
  },
];

const [REPORT, VISIBILITY, ANSWERS] = UI_RESOURCES.map((resource) => resource.uri) as [string, string, string];

/**
 * The views' own tools (app only: one per operation in graphql/operations/views): the view each
 * serves and the toolset it belongs to. The report view also lays out a report's definition (its
 * name, widgets, titles and units: get_report's data), so it needs the reports toolset too;
 * sections a view can leave out are marked in its operation instead (granted-sections.ts).
 */
export const APP_TOOLS: Readonly<Record<string, { resource: string } & ToolsetDeclaration>> = {
  view_report: { resource: REPORT, toolset: 'report_data', alsoNeeds: ['reports'] },
  view_visibility: { resource: VISIBILITY, toolset: 'visibility' },
  view_answers: { resource: ANSWERS, toolset: 'answers' },
};

/** A view tool's toolset, from its entry above; a view operation without one stops the start. */
export const viewToolset: ToolsetOf = (file, name) => {
  const tool = APP_TOOLS[name];
  if (!tool) throw new Error(`graphql/operations/views/${file}: a view tool without its view (APP_TOOLS)`);
  return { toolset: tool.toolset, alsoNeeds: tool.alsoNeeds };
};

/** The view each tool's result is shown in. */
const VIEW_OF_TOOL: Readonly<Record<string, string>> = {
  get_report_data: REPORT,
  get_ai_visibility_metrics: VISIBILITY,
  get_visibility_trend: VISIBILITY,
  list_answers: ANSWERS,
  ...Object.fromEntries(Object.entries(APP_TOOLS).map(([name, { resource }]) => [name, resource])),
};

/** Whether a client's capabilities declare MCP Apps with HTML views. */
export const declaresViews = (capabilities: ClientCapabilities | undefined): boolean =>
  Boolean(getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE));

/**
 * 2025-era clients declare their capabilities once, at `initialize`, and this server keeps no
 * session. A client that declared the extension is handed a session id with this prefix, which
 * it sends back on every later request: the declaration travels with the client, not in a store.
 */
export const VIEWS_SESSION_PREFIX = 'mcp-apps.';

export const viewsSessionId = () => `${VIEWS_SESSION_PREFIX}${crypto.randomUUID()}`;

/** A 2025-era `initialize` whose client capabilities declare MCP Apps. */
export const declaresViewsAtInitialize = (body: unknown): boolean => {
  const message = body as { method?: unknown; params?: { capabilities?: ClientCapabilities } } | undefined;
  return message?.method === 'initialize' && declaresViews(message.params?.capabilities);
};

/**
 * The `_meta` of a tool in a list for a client with views: its view (and the flat key older hosts
 * read), and app-only for the views' own tools.
 */
export function toolUiMeta(name: string): { _meta?: Record<string, unknown> } {
  const resourceUri = VIEW_OF_TOOL[name];
  if (!resourceUri) return {};
  return {
    _meta: {
      ui: { resourceUri, ...(name in APP_TOOLS ? { visibility: ['app'] } : {}) },
      [RESOURCE_URI_META_KEY]: resourceUri,
    },
  };
}

export const UI_RESOURCE_LIST = UI_RESOURCES.map(({ uri, name, title, description }) => ({
  uri,
  name,
  title,
  description,
  mimeType: RESOURCE_MIME_TYPE,
}));

/** A view's HTML: one self-contained document that may connect nowhere (an empty CSP allow-list). */
export async function readUiResource(uri: string) {
  const resource = UI_RESOURCES.find((candidate) => candidate.uri === uri);
  if (!resource) return null;
  return {
    uri,
    mimeType: RESOURCE_MIME_TYPE,
    text: await selfContainedDocument(resource.view, `Signalboard ${resource.title.toLowerCase()}`),
    _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
  };
}
