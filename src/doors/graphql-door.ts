// /graphql as the app mounts it. Its server (doors/graphql.ts: Yoga, its plugins and executor,
// megabytes of heap) is loaded on its first request, like the MCP connector: an instance that
// serves only v1 never holds it (docs/decisions/lazy-doors.md).
import { ApiError } from '../errors/index.js';
import { GRAPHIQL_PAGE_POLICY } from '../graphql/graphiql.js';
import { BODY_LIMITS, bounded } from '../http/body.js';
import { pageSecurityHeaders } from '../http/html.js';
import { getStandingFor, withoutBody } from '../http/responses.js';
import type { GraphQLExchange, YogaDependencies } from './graphql.js';
import type { Exchange } from './request-cycle.js';

/**
 * GraphQL over HTTP reads with GET and POST (and OPTIONS, a browser's CORS preflight; HEAD, the
 * GET's answer without its body); any other method is refused before a body is touched.
 */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);
/** The query parameters a GET carries as JSON: a malformed one is the caller's mistake, not a fault. */
const JSON_PARAMETERS = ['variables', 'extensions'] as const;

function refusalOfRequest(request: Request, url: URL): ApiError | null {
  if (!METHODS.has(request.method))
    return new ApiError('method_not_allowed', `${request.method.slice(0, 16)} is not allowed on /graphql.`, {
      headers: { Allow: [...METHODS].join(', ') },
    });
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  for (const name of JSON_PARAMETERS) {
    const value = url.searchParams.get(name);
    if (!value) continue;
    try {
      JSON.parse(value);
    } catch {
      return new ApiError('bad_request', `${name} is not valid JSON.`, { param: name });
    }
  }
  return null;
}

export function createGraphQLDoor(deps: YogaDependencies) {
  const load = async () => (await import('./graphql.js')).createGraphQLServer(deps);
  let server: ReturnType<typeof load> | null = null;
  return async (request: Request, url: URL, { requestId }: Exchange): Promise<Response> => {
    const refusal = refusalOfRequest(request, url);
    if (refusal) throw refusal;
    // Yoga serves no HEAD: the GET is served (GraphiQL, a query in the URL) and its body left off.
    if (request.method === 'HEAD') return withoutBody(await serve(getStandingFor(request), requestId));
    return serve(request, requestId);
  };

  async function serve(request: Request, requestId: string): Promise<Response> {
    const graphqlRequest = await bounded(request, BODY_LIMITS.graphql);
    const exchange: GraphQLExchange = { requestId, responseHeaders: {} };
    const response = await (await (server ??= load())).fetch(graphqlRequest, exchange);
    // What Yoga refused before GraphQL ran (doors/graphql-refusals.ts) leaves in the envelope.
    if (exchange.refusal) {
      void response.body?.cancel();
      throw exchange.refusal;
    }
    for (const [name, value] of Object.entries(exchange.responseHeaders)) response.headers.set(name, value);
    if (response.headers.get('content-type')?.startsWith('text/html'))
      for (const [name, value] of Object.entries(pageSecurityHeaders(GRAPHIQL_PAGE_POLICY)))
        response.headers.set(name, value);
    return response;
  }
}
