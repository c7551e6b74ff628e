// The OpenAPI 3.1 document, generated at start-up from the schema the server executes:
// SOFA describes the routes (3.0), @scalar/openapi-upgrader lifts it to 3.1, and this
// module adds what SOFA does not know: nullability from GraphQL, scalar formats, the
// bearer scheme, per-status error responses and rate-limit headers.
import { upgrade } from '@scalar/openapi-upgrader';
import { getNullableType, isListType, isNonNullType, isObjectType, type GraphQLSchema, type GraphQLOutputType } from 'graphql';
import { idPattern } from '../db/ids.js';
import { ID_SCALARS } from '../graphql/scalars.js';
import { REST_ROUTES } from './routes.js';
import { ROW_EXPORTS } from '../ai-visibility/index.js';

type JsonSchema = Record<string, unknown>;
type OpenApiDocument = Record<string, any>;

export const SCALAR_SCHEMAS: Record<string, JsonSchema> = {
  Date: { type: 'string', format: 'date', description: 'A calendar date, YYYY-MM-DD, from 0001-01-01 to 9999-12-31.', examples: ['2026-11-01'] },
  DateTime: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object', additionalProperties: true },
  ...Object.fromEntries(
    Object.entries(ID_SCALARS).map(([name, kind]) => [name, { type: 'string', pattern: idPattern(kind), description: `A ${kind} id.` }]),
  ),
};

const ERROR_RESPONSES: Record<string, { description: string; codes: string[] }> = {
  '400': { description: 'A parameter is malformed or not allowed (error.param names it), or the answer would pass the response byte cap (response_too_large: ask for a smaller page).', codes: ['invalid_parameter', 'response_too_large'] },
  '401': { description: 'No valid API key: missing, malformed, unknown, revoked or expired.', codes: ['unauthenticated', 'api_key_revoked', 'api_key_expired'] },
  '403': { description: 'The plan or the key\'s scopes do not allow the call.', codes: ['plan_required', 'insufficient_scope'] },
  '404': { description: 'No such path or resource in this workspace.', codes: ['not_found'] },
  '406': { description: 'The Accept header allows none of the endpoint\'s media types (JSON, plus CSV and NDJSON where the endpoint exports).', codes: ['not_acceptable'] },
  '429': { description: 'The key\'s or the workspace\'s rate limit is exhausted, or the workspace already has its most requests in flight (8 per instance by default); retry after Retry-After seconds.', codes: ['rate_limited'] },
  '500': { description: 'Unexpected server error; the message is generic and the request id is logged.', codes: ['internal_error'] },
  '503': { description: 'The database is unreachable; retry after Retry-After seconds.', codes: ['unavailable'] },
};

const RATE_LIMIT_HEADERS = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};

/** A type list with "null" added to `type` (a single type or a list of them). */
const withNull = (type: unknown) => (Array.isArray(type) ? [...new Set([...type, 'null'])] : [type, 'null']);

/**
 * Adds "null" to a property schema whose GraphQL field is nullable. A reference becomes
 * `anyOf: [ref, null]` and also names its types: JSON Schema does not need them, but Scalar's
 * reference page flags a schema without `type` as a document validation error.
 */
function allowNull(schema: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  if (typeof schema.$ref === 'string') {
    const target = schemas[schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1)];
    return {
      ...(target?.type ? { type: withNull(target.type) } : {}),
      anyOf: [{ $ref: schema.$ref }, { type: 'null' }],
      ...(schema.description ? { description: schema.description } : {}),
    };
  }
  const type = schema.type;
  const next: JsonSchema = { ...schema, type: withNull(type) };
  if (Array.isArray(schema.enum)) next.enum = [...schema.enum, null];
  return next;
}

/** Rebuilds nullability and `required` of every object schema from the GraphQL types. */
function applyGraphQLNullability(schemas: Record<string, JsonSchema>, schema: GraphQLSchema) {
  for (const [name, component] of Object.entries(schemas)) {
    const type = schema.getType(name);
    if (!isObjectType(type)) continue;
    const properties = (component.properties ?? {}) as Record<string, JsonSchema>;
    for (const [fieldName, field] of Object.entries(type.getFields())) {
      let property = properties[fieldName];
      if (!property) continue;
      const fieldType: GraphQLOutputType = field.type;
      const inner = getNullableType(fieldType);
      if (isListType(inner) && !isNonNullType(inner.ofType) && property.items) {
        property = { ...property, items: allowNull(property.items as JsonSchema, schemas) };
      }
      if (!isNonNullType(fieldType)) property = allowNull(property, schemas);
      properties[fieldName] = property;
    }
    component.required = Object.keys(properties);
    component.additionalProperties = false;
  }
}

function stripFormatFloat(value: unknown): void {
  if (Array.isArray(value)) value.forEach(stripFormatFloat);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // GraphQL Float is a double; "float"/"int32" would make generators pick narrow types.
    if (record.format === 'float') delete record.format;
    for (const child of Object.values(record)) stripFormatFloat(child);
  }
}

/** Drops component schemas nothing refers to (scalars SOFA inlined, enums only used on input). */
function pruneUnusedSchemas(document: OpenApiDocument) {
  const schemas = document.components.schemas as Record<string, unknown>;
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
          const name = child.slice('#/components/schemas/'.length);
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else visit(child);
      }
    }
  };
  visit({ ...document, components: { ...document.components, schemas: {} } });
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

export function buildOpenApiDocument(sofaDocument: OpenApiDocument, schema: GraphQLSchema, publicBaseUrl?: string): OpenApiDocument {
  const source = structuredClone(sofaDocument);
  const schemas = source.components.schemas as Record<string, JsonSchema>;
  delete schemas.Query;
  applyGraphQLNullability(schemas, schema);
  Object.assign(schemas, SCALAR_SCHEMAS);
  stripFormatFloat(schemas);

  const document = upgrade(source, '3.1') as OpenApiDocument;
  document.openapi = '3.1.0';
  document.info = {
    title: 'Signalboard API',
    version: '1.0.0',
    summary: 'Read-only access to clients, reports and AI-visibility data of one workspace.',
    description:
      'Every endpoint only reads. Authenticate with `Authorization: Bearer sgb_live_…`; a key reads exactly one workspace. ' +
      'Success bodies are `{ data, meta }`; capped collections carry `meta.total` and `meta.truncated`. Errors are `{ error: { code, message } }`. ' +
      'Every success carries a strong `ETag`; send it back as `If-None-Match` and an unchanged answer is `304 Not Modified` with no body, ' +
      'which does not spend a rate-limit token. Bodies of 1 KiB and more are compressed with brotli or gzip when `Accept-Encoding` allows.',
    license: { name: 'Proprietary', identifier: 'LicenseRef-Signalboard' },
    contact: { name: 'Signalboard API support', email: 'api@signalboard.example' },
  };
  // Without PUBLIC_BASE_URL the server is relative, so it resolves against wherever the
  // document was fetched from: the listening address, a proxy's, a tunnel's.
  document.servers = [publicBaseUrl ? { url: `${publicBaseUrl}/api/v1`, description: 'This server' } : { url: '/api/v1', description: 'The server this document was fetched from' }];
  document.tags = [...new Set(REST_ROUTES.map((route) => route.tag))].map((name) => ({ name, description: `${name} endpoints.` }));
  document.security = [{ apiKey: [] }];

  document.components.securitySchemes = {
    apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'sgb_live_<key_id>.<secret>', description: 'An API key of one workspace.' },
  };
  document.components.headers = {
    'X-Request-Id': { description: 'Identifies the request in the server logs.', schema: { type: 'string' } },
    RateLimit: { description: 'Remaining tokens and seconds until the bucket is full: "burst";r=<remaining>;t=<seconds>.', schema: { type: 'string' } },
    'RateLimit-Policy': { description: 'The key\'s bucket: "burst";q=<capacity>;w=<seconds to refill>.', schema: { type: 'string' } },
    'Retry-After': { description: 'Whole seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
    ETag: { description: 'Strong validator of the body; send it as If-None-Match to revalidate.', schema: { type: 'string' } },
  };
  document.components.parameters = {
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'ETag(s) of a body the client holds: an unchanged answer is 304 with no body and costs no rate-limit token.',
      schema: { type: 'string' },
    },
  };
  document.components.schemas.Error = {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', description: 'Stable machine-readable code.' },
          message: { type: 'string', description: 'A human sentence; may change.' },
          param: { type: 'string', description: 'The parameter at fault, for invalid_parameter.' },
          requestId: { type: 'string' },
        },
      },
    },
  };
  document.components.responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { description, codes }]) => [
      `Error${status}`,
      {
        description: `${description} Codes: ${codes.join(', ')}.`,
        headers: {
          'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
          ...(status === '429' || status === '503' ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
        },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );

  const paths: OpenApiDocument = {};
  for (const route of REST_ROUTES) {
    const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
    const operation = document.paths[openApiPath]?.get;
    if (!operation) throw new Error(`SOFA produced no operation for ${openApiPath}`);
    const field = schema.getQueryType()!.getFields()[route.field]!;
    operation.operationId = route.operationId;
    operation.summary = route.summary;
    operation.description = field.description ?? route.summary;
    operation.tags = [route.tag];
    for (const parameter of operation.parameters ?? []) {
      const arg = field.args.find((candidate) => candidate.name === parameter.name);
      if (arg?.description) parameter.description = arg.description;
      if (parameter.schema?.description) delete parameter.schema.description;
    }
    const success = operation.responses['200'];
    success.description = 'Success: `{ data, meta }`.';
    if (ROW_EXPORTS[route.field]) {
      success.description += ' With `Accept: text/csv` or `Accept: application/x-ndjson`: every row of the filtered range, streamed (no cap, no limit, no envelope; one rate-limit token per 1 000 rows). A workspace and an API key stream only a few exports at once (per instance; 4 and 2 by default): one more is 429 with Retry-After.';
      success.content['text/csv'] = { schema: { type: 'string', description: "A header line, then one row per line (RFC 4180 quoting; nested values as JSON). A text cell beginning with =, +, -, @, TAB or CR gets a leading ' so spreadsheets show it as text instead of running it (OWASP, CSV injection); NDJSON carries every value untouched." } };
      success.content['application/x-ndjson'] = { schema: { type: 'string', description: 'One JSON object per line, each exactly a row of the JSON response (values untouched: the form for warehouses).' } };
    }
    success.headers = { ...RATE_LIMIT_HEADERS, ETag: { $ref: '#/components/headers/ETag' } };
    operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IfNoneMatch' }];
    operation.responses = {
      '200': success,
      '304': { description: 'Not modified: the If-None-Match ETag still matches; no body, no rate-limit token spent.', headers: { ...RATE_LIMIT_HEADERS, ETag: { $ref: '#/components/headers/ETag' } } },
      ...Object.fromEntries(
        Object.keys(ERROR_RESPONSES)
          .filter((status) => status !== '400' || operation.parameters.length > 1)
          .map((status) => [status, { $ref: `#/components/responses/Error${status}` }]),
      ),
    };
    paths[openApiPath] = { get: operation };
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      description: 'The OpenAPI 3.1 description of API v1. Needs no key.',
      tags: ['Meta'],
      security: [],
      responses: { '200': { description: 'The document.', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  document.tags.push({ name: 'Meta', description: 'About the API itself.' });
  document.paths = paths;
  pruneUnusedSchemas(document);
  return document;
}
