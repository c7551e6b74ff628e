// The route label of a request path: a template from a fixed set, never the raw path (ids and
// typos would grow the metrics without bound).
const EXACT = new Set([
  '/',
  '/graphql',
  '/mcp',
  '/healthz',
  '/readyz',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
]);
const PREFIXES = ['/graphql/assets/', '/oauth/', '/app/', '/internal/ingest/', '/mcp/'];
const V1 = '/api/v1';

/** `v1` gives the template of a path below /api/v1 (e.g. "/reports/{id}/data"), or null. */
export function routeTemplateOf(path: string, v1: (subPath: string) => string | null): string {
  if (path === V1 || path.startsWith(`${V1}/`)) return `${V1}${v1(path.slice(V1.length)) ?? '/*'}`;
  if (EXACT.has(path)) return path;
  const prefix = PREFIXES.find((candidate) => path.startsWith(candidate));
  return prefix ? `${prefix}*` : 'other';
}
