// /api/v1: checks in the contract's order (method → authentication → plan → rate limit →
// scope → parameters → resource), then SOFA runs the route's GraphQL query with the
// same context factory /graphql uses. Every failure leaves as the error envelope.
import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { ApiError, notFound, toApiError } from '../errors/index.js';
import { errorResponse, JSON_CONTENT_TYPE, withoutBody } from '../http/responses.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { Principal } from '../auth/principal.js';
import { matchRoute, routeScopes } from './routes.js';
import { validateParameters } from './parameters.js';
import { buildOpenApiDocument } from './openapi.js';
import { BASE_PATH, createV1Router, v1Schema } from './sofa.js';
import { apiReferencePage, scalarBundle } from './docs.js';

export { BASE_PATH };

// SOFA's error handler does not see the request: it hands the errors back on the response
// object (fets returns it unchanged), and the envelope is built where the request id is known.
const EXECUTION_FAILED = 599;
const EXECUTION_ERRORS = Symbol('executionErrors');

export interface RestDependencies {
  schema: GraphQLSchema;
  logger: Logger;
  /** Authenticates, checks the plan and takes a token; returns the principal and rate-limit headers. */
  admit(request: Request, requestId: string): Promise<{ principal: Principal; headers: Record<string, string> }>;
  contextFor(principal: Principal, requestId: string): GraphQLContext;
  publicBaseUrl?: string;
}

export function createRestHandler(deps: RestDependencies) {
  const contexts = new WeakMap<Request, GraphQLContext>();
  const schema = v1Schema(deps.schema);
  const scopes = routeScopes(schema);
  const sofa = createV1Router(schema, {
    context: ({ request }: { request: Request }) => contexts.get(request)!,
    // The envelope is built below, where the request id is known; hand the errors over.
    errorHandler: (errors) => Object.assign(new Response(null, { status: EXECUTION_FAILED }), { [EXECUTION_ERRORS]: errors }) as never,
  });
  const openApi = buildOpenApiDocument(sofa.openAPIDocument as Record<string, any>, schema, deps.publicBaseUrl);
  const openApiBody = JSON.stringify(openApi);
  const docsPage = apiReferencePage(`${BASE_PATH}/openapi.json`);

  async function handleGet(request: Request, url: URL, requestId: string): Promise<Response> {
    const subPath = url.pathname.slice(BASE_PATH.length);
    if (subPath === '/openapi.json') return new Response(openApiBody, { headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'public, max-age=300' } });
    if (subPath === '/docs') return new Response(docsPage, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    if (subPath === '/docs/scalar.js') return new Response(new Uint8Array(await scalarBundle()), { headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' } });

    let headers: Record<string, string> = {};
    const respond = (response: Response) => {
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    };
    try {
      const admitted = await deps.admit(request, requestId);
      headers = admitted.headers;
      const match = matchRoute(subPath);
      if (!match) throw new ApiError('not_found', `No endpoint GET ${BASE_PATH}${subPath.slice(0, 200)}.`);
      const scope = scopes.get(match.route)!;
      if (!admitted.principal.scopes.includes(scope)) throw new ApiError('insufficient_scope', `This API key lacks the ${scope} scope.`);
      const field = schema.getQueryType()!.getFields()[match.route.field]!;
      const values = validateParameters(field, match.params, url.searchParams);

      // SOFA sees only validated parameters, so its own query-string parsing meets no surprises.
      const cleanUrl = new URL(url.pathname, url.origin);
      for (const [name, value] of Object.entries(values)) if (!(name in match.params)) cleanUrl.searchParams.set(name, value);
      // SOFA reads only the URL: no headers or body need copying.
      const sofaRequest = new Request(cleanUrl);
      contexts.set(sofaRequest, deps.contextFor(admitted.principal, requestId));
      const response = await sofa.fetch(sofaRequest);
      if (response.status === EXECUTION_FAILED) throw (response as Response & { [EXECUTION_ERRORS]: readonly GraphQLError[] })[EXECUTION_ERRORS];
      if (response.status === 404) throw notFound();
      // SOFA's response is ours to finish: set the headers in place rather than piping its body into a new one.
      response.headers.set('Content-Type', JSON_CONTENT_TYPE);
      response.headers.set('Cache-Control', 'private, no-store');
      return respond(response);
    } catch (error) {
      return respond(errorResponse(toApiError(error, (cause) => deps.logger.error({ err: cause, requestId }, 'request failed')), requestId));
    }
  }

  return async function handleRest(request: Request, url: URL, requestId: string): Promise<Response> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(new ApiError('method_not_allowed', `${BASE_PATH} is read-only; use GET or HEAD.`), requestId, { Allow: 'GET, HEAD' });
    }
    const response = await handleGet(request, url, requestId);
    return request.method === 'HEAD' ? withoutBody(response) : response;
  };
}
