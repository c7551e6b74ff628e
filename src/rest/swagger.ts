// The Swagger 2.0 document of v1, for the tools that read only 2.0 (Power Automate, Logic Apps,
// Power Apps and Copilot Studio connectors): derived in code from our own 3.1 document, so both
// describe the same operations and parameters. 2.0 has one host and base path instead of
// servers, an `apiKey` security definition (the key goes in Authorization as "Bearer …"), one
// list of media types per operation, and no `null` type: a nullable value is `x-nullable: true`
// (the extension AutoRest and Microsoft's connectors read), a nullable reference keeps its shape
// as `allOf: [$ref]` beside it.
import { BASE_PATH } from './v1-schema.js';
import type { OpenApiDocument } from './openapi-document.js';

type JsonSchema = OpenApiDocument;

const JSON_MEDIA_TYPE = 'application/json';
const definitionRef = (ref: string) => ref.replace('#/components/schemas/', '#/definitions/');
const isNullSchema = (schema: JsonSchema) => schema.type === 'null' && Object.keys(schema).length === 1;

/** A JSON Schema 2020-12 schema of the 3.1 document as a 2.0 schema object. */
export function schemaTo2(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === 'string') return { $ref: definitionRef(schema.$ref) };
  const out: JsonSchema = {};
  let nullable = false;
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case 'type': {
        const types = (Array.isArray(value) ? value : [value]).filter((type) => type !== 'null');
        nullable ||= types.length < (Array.isArray(value) ? value.length : 1);
        if (types.length !== 1) throw new Error(`Swagger 2.0 has no type list: ${JSON.stringify(value)}`);
        out.type = types[0];
        break;
      }
      case 'enum':
        nullable ||= value.includes(null);
        out.enum = value.filter((item: unknown) => item !== null);
        break;
      case 'anyOf':
      case 'oneOf': {
        const others = (value as JsonSchema[]).filter((option) => !isNullSchema(option));
        if (others.length !== 1) throw new Error(`Swagger 2.0 has no ${key} of several schemas`);
        nullable ||= others.length < value.length;
        const only = schemaTo2(others[0]!);
        if (only.$ref) out.allOf = [only];
        else Object.assign(out, only);
        break;
      }
      case 'examples':
        out.example = value[0];
        break;
      case 'const':
        out.enum = [value];
        break;
      case 'properties':
        out.properties = Object.fromEntries(
          Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [name, schemaTo2(property)]),
        );
        break;
      case 'items':
        out.items = schemaTo2(value);
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof value === 'boolean' ? value : schemaTo2(value);
        break;
      default:
        out[key] = value;
    }
  }
  if (nullable) out['x-nullable'] = true;
  return out;
}

// Words a label writes in capitals: "promptId" is "Prompt ID".
const LABEL_CAPITALS = new Set(['id', 'bom', 'url']);

/** A parameter's name as a form label ("dateFrom" reads "Date from"): Microsoft's connectors show `x-ms-summary`. */
export function parameterLabel(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .map((word) => (LABEL_CAPITALS.has(word) ? word.toUpperCase() : word));
  const label = words.join(' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/**
 * A query or path parameter has no `example` in 2.0: its schema's first example becomes `x-example`. Its label for
 * Microsoft's connector forms is `x-ms-summary`.
 */
function parameterTo2(parameter: JsonSchema): JsonSchema {
  const { schema, ...rest } = parameter;
  const { examples, ...shape } = schema as JsonSchema;
  const example = Array.isArray(examples) ? examples[0] : undefined;
  return {
    ...rest,
    'x-ms-summary': parameterLabel(parameter.name as string),
    ...schemaTo2(shape),
    ...(example !== undefined ? { 'x-example': example } : {}),
  };
}

function headersTo2(
  headers: Record<string, JsonSchema> | undefined,
  document: OpenApiDocument,
): Record<string, JsonSchema> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, header]) => {
      const resolved = header.$ref
        ? document.components.headers[header.$ref.slice(header.$ref.lastIndexOf('/') + 1)]
        : header;
      return [name, { description: resolved.description, ...schemaTo2(resolved.schema) }];
    }),
  );
}

function responseTo2(response: JsonSchema, document: OpenApiDocument): JsonSchema {
  if (response.$ref) return { $ref: response.$ref.replace('#/components/responses/', '#/responses/') };
  const [content] = Object.values((response.content ?? {}) as Record<string, { schema: JsonSchema }>);
  const headers = headersTo2(response.headers, document);
  return {
    description: response.description,
    ...(content ? { schema: schemaTo2(content.schema) } : {}),
    ...(headers ? { headers } : {}),
  };
}

function operationTo2(operation: OpenApiDocument, document: OpenApiDocument): OpenApiDocument {
  const { parameters, responses, ...rest } = operation;
  const mediaType = Object.keys(responses['200'].content)[0]!;
  return {
    ...rest,
    // An export produces its format alone: 2.0 has one list for every response, and generators send
    // `Accept: application/json` whenever it is in it (the errors are JSON all the same).
    ...(mediaType !== JSON_MEDIA_TYPE ? { produces: [mediaType] } : {}),
    ...(parameters ? { parameters: parameters.map(parameterTo2) } : {}),
    responses: Object.fromEntries(
      Object.entries(responses as Record<string, JsonSchema>).map(([status, response]) => [
        status,
        responseTo2(response, document),
      ]),
    ),
  };
}

/** The 2.0 document of a 3.1 document served at `origin` (scheme and host, no path). */
export function toSwagger2(document: OpenApiDocument, origin: string): OpenApiDocument {
  // 2.0's info has no summary.
  const { license, ...described } = document.info;
  const info = Object.fromEntries(Object.entries(described).filter(([key]) => key !== 'summary'));
  const url = new URL(origin);
  return {
    swagger: '2.0',
    info: { ...info, license: { name: license.name } },
    host: url.host,
    basePath: BASE_PATH,
    schemes: [url.protocol.slice(0, -1)],
    produces: [JSON_MEDIA_TYPE],
    tags: document.tags,
    security: [{ apiKey: [] }],
    securityDefinitions: {
      apiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Bearer sgb_live_…: the word Bearer, a space, then an API key of one workspace.',
      },
    },
    paths: Object.fromEntries(
      Object.entries(document.paths as Record<string, { get: OpenApiDocument }>).map(([path, item]) => [
        path,
        { get: operationTo2(item.get, document) },
      ]),
    ),
    definitions: Object.fromEntries(
      Object.entries(document.components.schemas as Record<string, JsonSchema>).map(([name, schema]) => [
        name,
        schemaTo2(schema),
      ]),
    ),
    responses: Object.fromEntries(
      Object.entries(document.components.responses as Record<string, JsonSchema>).map(([name, response]) => [
        name,
        responseTo2(response, document),
      ]),
    ),
  };
}
