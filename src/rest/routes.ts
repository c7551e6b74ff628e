import type { Scope } from '../auth/principal.js';

/** The v1 surface: exactly these paths, each mapped to one GraphQL query field. */
export interface RestRoute {
  path: string;
  field: string;
  scope: Scope;
  tag: string;
  summary: string;
}

export const REST_ROUTES: readonly RestRoute[] = [
  { path: '/clients', field: 'clients', scope: 'clients:read', tag: 'Clients', summary: 'List clients' },
  { path: '/reports', field: 'reports', scope: 'reports:read', tag: 'Reports', summary: 'List reports' },
  { path: '/reports/:id', field: 'report', scope: 'reports:read', tag: 'Reports', summary: 'Get a report definition' },
  { path: '/reports/:id/data', field: 'reportData', scope: 'reports:read', tag: 'Reports', summary: 'Get live report data' },
  { path: '/ai-visibility/projects', field: 'aiVisibilityProjects', scope: 'ai_visibility:read', tag: 'AI visibility', summary: 'List AI-visibility projects' },
  {
    path: '/ai-visibility/projects/:id/metrics',
    field: 'aiVisibilityMetrics',
    scope: 'ai_visibility:read',
    tag: 'AI visibility',
    summary: 'Get AI-visibility snapshot metrics',
  },
];

export interface RouteMatch {
  route: RestRoute;
  params: Record<string, string>;
}

/** Matches a path below the base path; segments are compared raw, so %2F cannot fake a separator. */
export function matchRoute(subPath: string): RouteMatch | null {
  const segments = subPath.split('/').slice(1);
  for (const route of REST_ROUTES) {
    const pattern = route.path.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let index = 0; index < pattern.length && matched; index++) {
      const expected = pattern[index]!;
      const actual = segments[index]!;
      if (expected.startsWith(':')) {
        let decoded: string;
        try {
          decoded = decodeURIComponent(actual);
        } catch {
          decoded = actual;
        }
        params[expected.slice(1)] = decoded;
        matched = actual.length > 0;
      } else {
        matched = expected === actual;
      }
    }
    if (matched) return { route, params };
  }
  return null;
}
