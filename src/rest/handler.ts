// /api/v1: checks in the contract's order (method → authentication → plan → rate limit →
// scope → media type → parameters → resource), then the route's compiled GraphQL operation runs with the
// same context factory /graphql uses. Every failure leaves as the error envelope.
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { ApiError } from '../errors/index.js';
import { jsonFailure } from '../doors/index.js';
import { errorResponse, JSON_CONTENT_TYPE, withoutBody } from '../http/responses.js';
import { runCompiled, type GraphQLContext } from '../graphql/context.js';
import type { DataCache } from '../db/data-cache.js';
import { requireScope, type Principal } from '../auth/index.js';
import type { Admitted } from '../auth/index.js';
import {
  finishedBody,
  heldBytes,
  heldTag,
  inputsEtag,
  notModified,
  jsonBody,
  representation,
  keptBody,
} from '../http/representation.js';
import { matchRoute, routeArguments, routeScopes, V1_ROUTES, type RestRoute, type RouteMatch } from './routes.js';
import { parameterValidator } from './parameters.js';
import { BASE_PATH, v1Schema } from './v1-schema.js';
import { codeDigest } from '../http/code-digest.js';
import { today } from '../dates/date-range.js';
import { compileRouteOperations } from './operations.js';
import { assertResponseSize } from '../http/response-size.js';
import { ROW_EXPORTS, type ExportArgs } from '../ai-visibility/index.js';
import { acceptsJson, exportResponse, negotiateExport } from './export.js';
import { createReferenceRoutes } from './reference-routes.js';
import { createExportSlots, type ExportShares } from './export-slots.js';

export { BASE_PATH };

export interface RestDependencies {
  schema: GraphQLSchema;
  logger: Logger;
  /** Authenticates, checks the plan and takes a token; returns the principal and rate-limit headers. */
  admit(request: Request, requestId: string): Promise<Admitted>;
  /** `signal`: the request's; its statements stop once its client went away. */
  contextFor(principal: Principal, requestId: string, signal?: AbortSignal): GraphQLContext;
  /** Where finished bodies of versioned routes are kept (the data cache's byte budget). */
  cache: DataCache;
  /** Exports streaming at once: per instance (the export pool), per workspace, per key. */
  exportShares: ExportShares;
  /** The origin a request was addressed to (PUBLIC_BASE_URL's when set): the documents' server. */
  originOf(request: Request): string;
}

/**
 * Routes whose answer depends only on their parameters, one row's versions and the day: their
 * finished body is cached and their ETag named by those inputs, so a repeated poll or a 304
 * skips execution and serialisation. The probe is one indexed lookup: of the versions alone where
 * the answer is likely kept (the data cache on), otherwise of the row the execution then uses
 * (db/client-owned-repository.ts, `ProbeRead`); a missing row falls through to execution, which
 * answers 404 as usual. A report's definition is its row alone (its edits move `updated_at`); its data also
 * moves with each ingest of the client's facts and with the day in the report's time zone, and
 * metrics with each ingest of the project's scans and, when a bound is left to default, the UTC day.
 */
type InputsProbe = (
  context: GraphQLContext,
  params: Record<string, string>,
  variables: Record<string, unknown>,
  likelyKept: boolean,
) => Promise<string | null>;
const withDayIn = (version: string | null, timeZone: string | null, now: Date) =>
  version === null || timeZone === null ? null : `${version}|${today(timeZone, now)}`;
const INPUTS_OF: Partial<Record<string, InputsProbe>> = {
  // A report's answer is its row alone: without the client's data version it needs no more than it shows.
  report: (context, params, _variables, kept) =>
    context.repositories.reports.rowVersionOf(params.id!, kept ? 'kept' : 'alone'),
  reportData: async ({ repositories: { reports }, now }, params, _variables, kept) => {
    const read = kept ? 'kept' : 'row';
    return withDayIn(await reports.dataVersionOf(params.id!, read), await reports.timeZoneOf(params.id!, read), now);
  },
  aiVisibilityMetrics: async ({ repositories: { projects }, now }, params, variables) => {
    const version = await projects.dataVersionOf(params.id!);
    return variables.dateFrom && variables.dateTo ? version : withDayIn(version, 'UTC', now);
  },
};

/** A body the cache keeps is copied out of Node's pool (`keptBody`); with the cache off it is sent once and dropped. */
const bodyFor = (cache: DataCache) => (cache.keeps ? keptBody : finishedBody);

/**
 * Asking only for what an endpoint cannot send (`Accept: text/csv` where there is no export) is refused rather than
 * answered in JSON.
 */
const notAcceptable = (exportable: boolean) =>
  new ApiError(
    'not_acceptable',
    exportable
      ? 'This endpoint answers application/json, text/csv or application/x-ndjson; ' +
          'the Accept header allows none of them.'
      : 'This endpoint answers application/json only (the OpenAPI document lists the endpoints that also export ' +
          'CSV and NDJSON); send Accept: application/json.',
  );
/** An export route validates its JSON twin's filters; paging arguments are unknown there, so ignored. */
const validatorOf = (route: RestRoute, schema: GraphQLSchema) => {
  const field = schema.getQueryType()!.getFields()[route.field]!;
  return parameterValidator({ ...field, args: routeArguments(route, field) });
};

/**
 * The format an answer takes. An export route answers the one format its path names, whatever the Accept header
 * says (RFC 9110 lets a server disregard it): generated clients send `Accept: application/json` on every call, and
 * a 406 left their exports unusable. A JSON route also streams for `Accept: text/csv` (kept for its callers);
 * anything else the Accept header rules out is a 406.
 */
function negotiatedFormat(route: RestRoute, exportable: boolean, accept: string | null) {
  if (route.format) return route.format;
  const format = exportable ? negotiateExport(accept) : null;
  if (!format && !acceptsJson(accept)) throw notAcceptable(exportable);
  return format;
}

// Revalidation, not storage: a client may keep the body and ask again with If-None-Match.
const CACHING = { 'Cache-Control': 'private, no-cache' } as const;

/** An unchanged answer gives its token back, as GitHub does. */
const unchanged = async (etag: string, admitted: Admitted) =>
  notModified(etag, { ...CACHING, ...(await admitted.refund()) });

/** A JSON route's answer: its finished body (kept when the route has a data version), revalidated by ETag. */
const jsonAnswers = (deps: RestDependencies, operations: ReturnType<typeof compileRouteOperations>) =>
  async function answerJson(
    request: Request,
    match: RouteMatch,
    context: GraphQLContext,
    variables: Record<string, unknown>,
    admitted: Admitted,
    headers: Record<string, string>,
  ): Promise<Response> {
    const inputs = await INPUTS_OF[match.route.field]?.(context, match.params, variables, deps.cache.keeps);
    const { workspaceId } = context.workspace;
    const cacheKey =
      inputs != null ? `body|${workspaceId}|${match.route.operationId}|${JSON.stringify(variables)}|${inputs}` : null;
    const execute = async () => {
      const result = await runCompiled(operations.get(match.route)!, context, variables);
      if (result.errors?.length) throw result.errors;
      const data = result.data![match.route.field];
      assertResponseSize(data, context.config.RESPONSE_MAX_BYTES);
      return jsonBody(data);
    };
    const ifNoneMatch = request.headers.get('if-none-match');
    // One named by its inputs is not even computed.
    const held = cacheKey && ifNoneMatch ? heldTag(request, inputsEtag(cacheKey)) : null;
    if (held) return unchanged(held, admitted);
    // A kept body's `encodings` are filled by whichever request compresses it first.
    const finished = cacheKey
      ? await deps.cache.getOrCompute(
          cacheKey,
          async () => bodyFor(deps.cache)(await execute(), inputsEtag(cacheKey)),
          heldBytes,
        )
      : finishedBody(await execute());
    const heldNow = cacheKey ? null : heldTag(request, finished.etag);
    if (heldNow) return unchanged(heldNow, admitted);
    // A coding made of a kept body counts against the cache's byte budget: the entry is set again
    // as a new object (sharing the encodings), since the cache re-measures only a changed value.
    const recount = cacheKey ? () => deps.cache.set(cacheKey, { ...finished }, heldBytes(finished)) : undefined;
    return representation(request, finished, { ...headers, ...CACHING, 'Content-Type': JSON_CONTENT_TYPE }, recount);
  };

export function createRestHandler(deps: RestDependencies) {
  const schema = v1Schema(deps.schema);
  const scopes = routeScopes(schema);
  const parametersOf = new Map(V1_ROUTES.map((route) => [route, validatorOf(route, schema)]));
  const referenceAnswer = createReferenceRoutes(schema, deps.originOf);
  const exportSlots = createExportSlots(deps.exportShares);
  const answerJson = jsonAnswers(deps, compileRouteOperations(schema));
  // Read at start, not on the first poll's clock.
  codeDigest();

  async function handleGet(
    request: Request,
    url: URL,
    requestId: string,
    abort?: (error: Error) => void,
  ): Promise<Response> {
    const subPath = url.pathname.slice(BASE_PATH.length);
    const reference = await referenceAnswer(request, subPath, requestId);
    if (reference) return reference;

    let headers: Record<string, string> = {};
    try {
      const admitted = await deps.admit(request, requestId);
      headers = admitted.headers;
      const match = matchRoute(subPath);
      if (!match) throw new ApiError('not_found', `No endpoint GET ${BASE_PATH}${subPath.slice(0, 200)}.`);
      const scope = scopes.get(match.route)!;
      requireScope(admitted.principal, scope, { challenge: true });
      const exportOf = ROW_EXPORTS[match.route.field];
      const format = negotiatedFormat(match.route, Boolean(exportOf), request.headers.get('accept'));
      const variables = parametersOf.get(match.route)!(match.params, url.search);
      const context = deps.contextFor(admitted.principal, requestId, request.signal);
      if (exportOf && format) {
        const project = await context.repositories.projects.find(String(variables.id));
        const { bom, ...filters } = variables;
        const rows = exportOf(context.workspace, project, filters as ExportArgs, context.now);
        return await exportResponse(
          {
            scope: context.workspace,
            slots: exportSlots,
            keyId: admitted.principal.credentialId,
            rows,
            format,
            bom: bom === true,
            spendToken: admitted.spend,
            logger: deps.logger,
            requestId,
            abort,
            signal: request.signal,
          },
          headers,
          request.method,
        );
      }
      return await answerJson(request, match, context, variables, admitted, headers);
    } catch (error) {
      return jsonFailure(error, { requestId, logger: deps.logger, what: 'request failed' }, headers);
    }
  }

  return function handleRest(
    request: Request,
    url: URL,
    requestId: string,
    connection: { abort?: ((error: Error) => void) | undefined } = {},
  ): Promise<Response> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const refusal = new ApiError('method_not_allowed', `${BASE_PATH} is read-only; use GET or HEAD.`);
      return Promise.resolve(errorResponse(refusal, requestId, { Allow: 'GET, HEAD' }));
    }
    const answer = handleGet(request, url, requestId, connection.abort);
    return request.method === 'HEAD' ? answer.then(withoutBody) : answer;
  };
}
