// The OpenAPI 3.1 document, generated on first use from the schema the server executes:
// SOFA describes the JSON routes' response schemas (3.0), @scalar/openapi-upgrader lifts them to
// 3.1, and this module adds what SOFA does not know: nullability from GraphQL, scalar formats,
// parameters with every rule (openapi-parameters.ts), the export operations, the bearer scheme,
// per-status error responses and rate-limit headers. The document has no server: each origin
// gets its own (`forOrigin`), and swagger.ts derives the 2.0 document from this one.
import { upgrade } from '@scalar/openapi-upgrader';
import type { OpenApiDocument } from './openapi-document.js';
import type { GraphQLSchema } from 'graphql';
import { idPattern } from '../db/ids.js';
import { ID_SCALARS } from '../graphql/scalars.js';
import { REST_ROUTES, V1_ROUTES, type RestRoute } from './routes.js';
import { EXPORT_MEDIA_TYPES } from './export.js';
import { routeParameters } from './openapi-parameters.js';
import { ERROR_RESPONSES, sharedComponents } from './openapi-components.js';
import { applyGraphQLNullability, pruneUnusedSchemas, stripFormatFloat } from './openapi-schemas.js';
import { BASE_PATH } from './v1-schema.js';

type JsonSchema = Record<string, unknown>;

export const SCALAR_SCHEMAS: Record<string, JsonSchema> = {
  Date: {
    type: 'string',
    format: 'date',
    description: 'A calendar date, YYYY-MM-DD, from 0001-01-01 to 9999-12-31.',
    examples: ['2026-11-01'],
  },
  DateTime: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object', additionalProperties: true },
  ...Object.fromEntries(
    Object.entries(ID_SCALARS).map(([name, kind]) => [
      name,
      { type: 'string', pattern: idPattern(kind), description: `A ${kind} id.` },
    ]),
  ),
};

const RATE_LIMIT_HEADERS = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};

/** Said once for the whole API (GPT Actions and importers read no header parameters). */
const API_DESCRIPTION =
  'Every endpoint only reads. Authenticate with `Authorization: Bearer sgb_live_…`; ' +
  'a key reads exactly one workspace. ' +
  'Success bodies are `{ data, meta }`; capped collections carry `meta.total` and `meta.truncated`. ' +
  'Errors are `{ error: { code, message } }`. ' +
  'Conditional requests: every JSON success carries a strong `ETag`; ' +
  'send it back in an `If-None-Match` header and an unchanged answer is ' +
  '`304 Not Modified` with no body, which does not spend a rate-limit token. ' +
  'Bodies of 1 KiB and more are compressed with brotli or gzip ' +
  'when `Accept-Encoding` allows. ' +
  'Exports: the operations whose path ends in `.csv` or `.ndjson` stream every row of the filtered range.';

const EXPORT_BODIES: Record<NonNullable<RestRoute['format']>, string> = {
  csv:
    'A header line, then one row per line (RFC 4180 quoting; nested values as JSON). ' +
    'A text cell beginning with =, +, -, @, TAB or CR (after any invisible characters) ' +
    "gets a leading ' so spreadsheets show it as text instead of running it (OWASP, CSV injection); " +
    'NDJSON carries every value untouched.',
  ndjson:
    'One JSON object per line, each exactly a row of the JSON response (values untouched: the form for warehouses).',
};

const errorRefs = (statuses: readonly string[]) =>
  Object.fromEntries(statuses.map((status) => [status, { $ref: `#/components/responses/Error${status}` }]));

function jsonOperation(route: RestRoute, sofaOperation: OpenApiDocument, schema: GraphQLSchema): OpenApiDocument {
  const field = schema.getQueryType()!.getFields()[route.field]!;
  const parameters = routeParameters(route, field);
  const success = sofaOperation.responses['200'];
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: field.description ?? route.summary,
    tags: [route.tag],
    ...(parameters.length ? { parameters } : {}),
    responses: {
      '200': {
        description: 'Success: `{ data, meta }`.',
        headers: { ...RATE_LIMIT_HEADERS, ETag: { $ref: '#/components/headers/ETag' } },
        content: success.content,
      },
      '304': {
        description: 'Not modified: the If-None-Match ETag still matches; no body, no rate-limit token spent.',
        headers: { ...RATE_LIMIT_HEADERS, ETag: { $ref: '#/components/headers/ETag' } },
      },
      ...errorRefs(Object.keys(ERROR_RESPONSES).filter((status) => status !== '400' || parameters.length)),
    },
  };
}

function exportOperation(route: RestRoute, schema: GraphQLSchema): OpenApiDocument {
  const format = route.format!;
  const twin = REST_ROUTES.find((candidate) => candidate.field === route.field)!;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description:
      `Every row ${twin.operationId} would list, over the same filters, streamed (no cap, no limit, no envelope). ` +
      'The request spends one rate-limit token, and each 1 000 rows beyond the first 1 000 one more; ' +
      'a workspace and a key stream only a few exports at once (then 429 with Retry-After).',
    tags: [route.tag],
    parameters: routeParameters(route, schema.getQueryType()!.getFields()[route.field]!),
    responses: {
      '200': {
        description: `Every row as ${format.toUpperCase()}.`,
        headers: { ...RATE_LIMIT_HEADERS, 'Content-Disposition': { $ref: '#/components/headers/Content-Disposition' } },
        content: { [EXPORT_MEDIA_TYPES[format]]: { schema: { type: 'string', description: EXPORT_BODIES[format] } } },
      },
      // An export answers its format whatever the Accept header says (rest/handler.ts, negotiatedFormat).
      ...errorRefs(Object.keys(ERROR_RESPONSES).filter((status) => status !== '406')),
    },
  };
}

/** The document without servers: the same for every origin. */
export function buildOpenApiDocument(sofaDocument: OpenApiDocument, schema: GraphQLSchema): OpenApiDocument {
  const source = structuredClone(sofaDocument);
  const schemas = source.components.schemas as Record<string, JsonSchema>;
  delete schemas.Query;
  applyGraphQLNullability(schemas, schema);
  Object.assign(schemas, SCALAR_SCHEMAS);
  stripFormatFloat(schemas);

  const upgraded = upgrade(source, '3.1') as OpenApiDocument;
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Signalboard API',
      version: '1.0.0',
      summary: 'Read-only access to clients, reports and AI-visibility data of one workspace.',
      description: API_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Signalboard' },
      contact: { name: 'Signalboard API support', email: 'api@signalboard.example' },
    },
    servers: [],
    tags: [...new Set(V1_ROUTES.map((route) => route.tag))].map((name) => ({
      name,
      description: `${name} endpoints.`,
    })),
    security: [{ apiKey: [] }],
    paths: {},
    components: upgraded.components,
  };
  Object.assign(document.components, sharedComponents(document.components.schemas));

  for (const route of V1_ROUTES) {
    const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
    if (route.format) {
      document.paths[openApiPath] = { get: exportOperation(route, schema) };
      continue;
    }
    const sofaOperation = upgraded.paths[openApiPath]?.get;
    if (!sofaOperation) throw new Error(`SOFA produced no operation for ${openApiPath}`);
    document.paths[openApiPath] = { get: jsonOperation(route, sofaOperation, schema) };
  }
  pruneUnusedSchemas(document);
  return document;
}

/** The document as served at an origin: its one server is that origin's v1 base. */
export const forOrigin = (document: OpenApiDocument, origin: string): OpenApiDocument => ({
  ...document,
  servers: [{ url: `${origin}${BASE_PATH}`, description: 'This server' }],
});
