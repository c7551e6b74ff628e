import { GraphQLBoolean, type GraphQLArgument, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { Scope } from '../auth/index.js';
import { ROW_EXPORTS } from '../ai-visibility/index.js';
import { EXPORT_MEDIA_TYPES, type ExportFormat } from './export.js';
import { pathMatcher } from '../doors/index.js';

/**
 * The v1 surface, each endpoint declared once: its exact path, the GraphQL query field it
 * runs, its OpenAPI operation id, tag and summary. SOFA's routes, the export routes and the
 * OpenAPI operations are derived from this table; the scope a route needs is the one its field declares
 * (`authScopes`), so v1, /graphql and MCP cannot disagree about it.
 */
export interface RestRoute {
  path: string;
  field: string;
  operationId: string;
  tag: string;
  summary: string;
  /** Set on an export route: the one format it streams (its JSON twin is the route without the suffix). */
  format?: ExportFormat;
}

export const REST_ROUTES: readonly RestRoute[] = [
  { path: '/clients', field: 'clients', operationId: 'listClients', tag: 'Clients', summary: 'List clients' },
  { path: '/reports', field: 'reports', operationId: 'listReports', tag: 'Reports', summary: 'List reports' },
  {
    path: '/reports/:id',
    field: 'report',
    operationId: 'getReport',
    tag: 'Reports',
    summary: 'Get a report definition',
  },
  {
    path: '/reports/:id/data',
    field: 'reportData',
    operationId: 'getReportData',
    tag: 'Reports',
    summary: 'Get live report data',
  },
  {
    path: '/ai-visibility/projects',
    field: 'aiVisibilityProjects',
    operationId: 'listAiVisibilityProjects',
    tag: 'AI visibility',
    summary: 'List AI-visibility projects',
  },
  {
    path: '/ai-visibility/projects/:id/metrics',
    field: 'aiVisibilityMetrics',
    operationId: 'getAiVisibilityMetrics',
    tag: 'AI visibility',
    summary: 'Get AI-visibility snapshot metrics',
  },
  {
    path: '/ai-visibility/projects/:id/prompts',
    field: 'aiVisibilityPrompts',
    operationId: 'listAiVisibilityPrompts',
    tag: 'AI visibility',
    summary: 'List tracked prompts with pooled totals',
  },
  {
    path: '/ai-visibility/projects/:id/answers',
    field: 'aiVisibilityAnswers',
    operationId: 'listAiVisibilityAnswers',
    tag: 'AI visibility',
    summary: 'List answers (keyset pages)',
  },
  {
    path: '/ai-visibility/projects/:id/answers/:answerId',
    field: 'aiVisibilityAnswer',
    operationId: 'getAiVisibilityAnswer',
    tag: 'AI visibility',
    summary: 'Get one answer',
  },
  {
    path: '/ai-visibility/projects/:id/sources',
    field: 'aiVisibilitySources',
    operationId: 'getAiVisibilitySources',
    tag: 'AI visibility',
    summary: 'Get cited sources with shares',
  },
  {
    path: '/ai-visibility/projects/:id/search-queries',
    field: 'aiVisibilitySearchQueries',
    operationId: 'listAiVisibilitySearchQueries',
    tag: 'AI visibility',
    summary: 'List the web searches engines ran, with the brand visibility in their runs',
  },
  {
    path: '/ai-visibility/projects/:id/opportunities',
    field: 'aiVisibilityOpportunities',
    operationId: 'getAiVisibilityOpportunities',
    tag: 'AI visibility',
    summary: 'Get ranked opportunities: prompts, sources and own pages',
  },
];

/** Arguments of a JSON route that an export does not take: it streams every row. */
export const PAGING_ARGUMENTS: readonly string[] = ['limit', 'cursor'];

/**
 * The CSV exports' own parameter, declared as a GraphQL argument is, so the validator and the
 * OpenAPI document read it like the field's: Excel reads a CSV without a byte-order mark as the
 * machine's legacy code page ("â€”" for an em dash), while scripts want no mark before the header.
 */
export const BOM_ARGUMENT: GraphQLArgument = {
  name: 'bom',
  description:
    'Start the file with a UTF-8 byte-order mark (EF BB BF) so that spreadsheets such as Excel read it as UTF-8. ' +
    "Off by default: most CSV readers take the mark as part of the first column's name.",
  type: GraphQLBoolean,
  defaultValue: false,
  deprecationReason: undefined,
  extensions: {},
  astNode: undefined,
};

/** The arguments a route takes: its field's, less paging on an export, and `bom` on a CSV export. */
export function routeArguments(route: RestRoute, field: GraphQLField<unknown, unknown>): GraphQLArgument[] {
  const args = field.args.filter((arg) => !(route.format && PAGING_ARGUMENTS.includes(arg.name)));
  return route.format === 'csv' ? [...args, BOM_ARGUMENT] : args;
}

/**
 * One export route per format for each route whose field has an entry in ROW_EXPORTS: its path
 * with the format as suffix of the last segment (`/answers.csv`, a segment no id can match since
 * ids are compared against the literal), the same field, filters and scope, one media type.
 */
export const EXPORT_ROUTES: readonly RestRoute[] = REST_ROUTES.filter((route) => ROW_EXPORTS[route.field]).flatMap(
  (route) =>
    (Object.keys(EXPORT_MEDIA_TYPES) as ExportFormat[]).map((format) => {
      const rows = route.path.slice(route.path.lastIndexOf('/') + 1).replace(/-/g, ' ');
      const upper = format.toUpperCase();
      return {
        path: `${route.path}.${format}`,
        field: route.field,
        operationId: `export${route.operationId.replace(/^[a-z]+/, '')}${upper[0]}${format.slice(1)}`,
        tag: route.tag,
        summary: `Export every row of ${rows} as ${upper}`,
        format,
      };
    }),
);

/** Every route v1 answers: the JSON routes, then the exports. */
export const V1_ROUTES: readonly RestRoute[] = [...REST_ROUTES, ...EXPORT_ROUTES];

/** The scope each route's field declares; a route whose field declares none is a start-up error. */
export function routeScopes(schema: GraphQLSchema): ReadonlyMap<RestRoute, Scope> {
  return new Map(
    V1_ROUTES.map((route) => {
      const field = schema.getQueryType()?.getFields()[route.field];
      const scope = (field?.extensions.pothosOptions as { authScopes?: { scope?: Scope } } | undefined)?.authScopes
        ?.scope;
      if (!scope) throw new Error(`v1 route ${route.path}: query field ${route.field} declares no scope`);
      return [route, scope];
    }),
  );
}

export interface RouteMatch {
  route: RestRoute;
  params: Record<string, string>;
}

const V1_MATCHER = pathMatcher(
  V1_ROUTES.map((route) => [route.path, { route, template: route.path.replace(/:(\w+)/g, '{$1}') }] as const),
);

/** Matches a path below the base path (the doors' matcher: segments compared raw, then the parameters decoded). */
export function matchRoute(subPath: string): RouteMatch | null {
  const matched = V1_MATCHER.match(subPath);
  return matched && { route: matched.value.route, params: matched.params };
}

/** The documented template of a path below the base path ("/reports/{id}/data"), or null. */
export function v1RouteTemplate(subPath: string): string | null {
  return V1_MATCHER.find(subPath)?.template ?? null;
}
