// How the component schemas SOFA derives are completed from the GraphQL types: nullability
// (JSON Schema 2020-12 `type` lists, no 3.0 `nullable`), `required`, no narrow float formats, and
// no schema nothing refers to.
import type { OpenApiDocument } from './openapi-document.js';
import {
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLSchema,
  type GraphQLOutputType,
} from 'graphql';

type JsonSchema = Record<string, unknown>;

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
export function applyGraphQLNullability(schemas: Record<string, JsonSchema>, schema: GraphQLSchema) {
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

export function stripFormatFloat(value: unknown): void {
  if (Array.isArray(value)) value.forEach(stripFormatFloat);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // GraphQL Float is a double; "float"/"int32" would make generators pick narrow types.
    if (record.format === 'float') delete record.format;
    for (const child of Object.values(record)) stripFormatFloat(child);
  }
}

/** Drops component schemas nothing refers to (scalars SOFA inlined, enums only used on input). */
export function pruneUnusedSchemas(document: OpenApiDocument) {
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
