// The JSON Schemas of a read tool, derived from its GraphQL operation so nothing is written
// twice: the input from the operation's variables, the output from its selection. Both are what
// a model's context pays for on every tools/list (docs/mcp.md, context budget), so each is said
// as tersely as it stays exact.
import {
  GraphQLInputObjectType,
  GraphQLObjectType,
  GraphQLScalarType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ID_SCALARS } from '../../graphql/scalars.js';
import { idPrefixes } from '../../db/ids.js';
import { MAX_LIST_ITEMS } from './tool-arguments.js';

export type JsonSchema = Record<string, unknown>;

const SCALAR_SCHEMAS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  Date: { type: 'string', format: 'date' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
  JSONObject: { type: 'object' },
};

// Typed ids (ClientId, ReportId, …) are strings of a pattern: said as their prefix, as every
// tools/list pays for each token (docs/decisions/mcp-context-budget.md); a malformed id is still
// refused by the scalar when the tool runs.
const ID_PATTERNS: Record<string, string> = Object.fromEntries(
  Object.entries(ID_SCALARS).map(([name, kind]) => [name, `^${idPrefixes[kind]}_`]),
);

function scalarSchema(type: GraphQLScalarType): JsonSchema {
  if (ID_PATTERNS[type.name]) return { type: 'string', pattern: ID_PATTERNS[type.name] };
  // Typed ids (ClientId, ReportId, …) are strings with a pattern in their description; GraphQL's
  // own scalars say nothing a model needs.
  // A `format` (date, date-time) says what the scalar's description would.
  const base = SCALAR_SCHEMAS[type.name] ?? { type: 'string' };
  const described = type.description && !isSpecifiedScalarType(type) && !base.format;
  return { ...base, ...(described ? { description: type.description } : {}) };
}

/** Input enums with more values than this are described, not listed. */
const LONGEST_LISTED_ENUM = 12;

/**
 * Input enums said as a pattern: the date presets (16 values) in every report tool.
 * Tested against the enum's values.
 */
export const ENUM_PATTERNS: Record<string, string> = {
  DatePreset: '^(today|yesterday|(this|last)_(week|month|quarter|year)|last_(7|14|28|30|90|365)_days)$',
};

/** JSON Schema of a GraphQL input type (without the outer non-null). */
export function inputTypeSchema(type: GraphQLInputType): JsonSchema {
  if (isNonNullType(type)) return inputTypeSchema(type.ofType);
  if (isListType(type)) return { type: 'array', items: inputTypeSchema(type.ofType), maxItems: MAX_LIST_ITEMS };
  if (isEnumType(type) && ENUM_PATTERNS[type.name]) return { type: 'string', pattern: ENUM_PATTERNS[type.name] };
  if (isEnumType(type)) {
    const values = type.getValues().map((value) => value.name);
    // A long list (every metric of every provider) costs more context than it helps: the catalogue tool names them.
    if (values.length > LONGEST_LISTED_ENUM)
      return { type: 'string', description: `A ${type.name.toLowerCase()} id; describe_metrics lists them.` };
    return { type: 'string', enum: values, ...(type.description ? { description: type.description } : {}) };
  }
  if (isInputObjectType(type)) {
    const fields = Object.values((type as GraphQLInputObjectType).getFields());
    return {
      type: 'object',
      properties: Object.fromEntries(
        fields.map((field) => [
          field.name,
          { ...inputTypeSchema(field.type), ...(field.description ? { description: field.description } : {}) },
        ]),
      ),
      required: fields
        .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
        .map((field) => field.name),
      additionalProperties: false,
    };
  }
  return scalarSchema(type as GraphQLScalarType);
}

// Output schemas: nullable as a type list (`["string", "null"]`) rather than anyOf, and without
// descriptions (the tool's description and the field names carry the meaning; inputs keep theirs).
const nullable = (schema: JsonSchema): JsonSchema =>
  typeof schema.type !== 'string'
    ? schema
    : {
        ...schema,
        type: [schema.type, 'null'],
        ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
      };

// An output schema spells out this many object levels (a node() wrapper counts: the tool's field,
// its envelope); below them it says "object" and no more. The rows themselves are
// self-describing in structuredContent, and their fields would weigh on every tools/list
// (docs/decisions/mcp-context-budget.md).
const OUTPUT_SCHEMA_DEPTH = 2;

/** JSON Schema of what a selection returns from a field of type `type`. */
function outputSchema(
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  schema: GraphQLSchema,
  depth = 0,
): JsonSchema {
  if (isNonNullType(type)) return nonNullOutputSchema(type.ofType, selection, schema, depth);
  return nullable(nonNullOutputSchema(type, selection, schema, depth));
}

function nonNullOutputSchema(
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  schema: GraphQLSchema,
  depth: number,
): JsonSchema {
  if (isNonNullType(type)) return nonNullOutputSchema(type.ofType, selection, schema, depth);
  if (isListType(type)) return { type: 'array', items: outputSchema(type.ofType, selection, schema, depth) };
  // An enum's values are listed where a model chooses them (the inputs); an output just says string.
  if (isEnumType(type)) return { type: 'string' };
  if (isScalarType(type)) return SCALAR_SCHEMAS[type.name] ?? { type: 'string' };
  if (depth >= OUTPUT_SCHEMA_DEPTH) return { type: 'object' };
  return selectionSchema(type as GraphQLObjectType, selection!, schema, depth + 1);
}

export function selectionSchema(
  parent: GraphQLObjectType,
  selection: SelectionSetNode,
  schema: GraphQLSchema,
  depth = 0,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const node of selection.selections) {
    if (node.kind === Kind.FIELD) {
      if (node.name.value === '__typename') {
        properties[node.alias?.value ?? '__typename'] = { type: 'string' };
        continue;
      }
      const fields = (isObjectType(parent) || isAbstractType(parent) ? parent.getFields() : {}) as ReturnType<
        GraphQLObjectType['getFields']
      >;
      const field = fields[node.name.value];
      if (!field) throw new Error(`${parent.name} has no field ${node.name.value}`);
      properties[node.alias?.value ?? node.name.value] = outputSchema(field.type, node.selectionSet, schema, depth);
    } else if (node.kind === Kind.INLINE_FRAGMENT) {
      // A fragment on a concrete type (node(id) { ... on Report { … } }): its fields, absent for other types.
      const on = node.typeCondition ? schema.getType(node.typeCondition.name.value) : parent;
      Object.assign(
        properties,
        (selectionSchema(on as GraphQLObjectType, node.selectionSet, schema, depth).properties as Record<
          string,
          JsonSchema
        >) ?? {},
      );
    } else {
      throw new Error(`...${node.name.value}: named fragments are spelled out before a schema is derived`);
    }
  }
  return { type: 'object', properties };
}

/**
 * The operation of a document with each named fragment spelled out in place, as an inline fragment on
 * its type (the output schema is the same either way).
 */
export function spelledOut(document: DocumentNode): OperationDefinitionNode {
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  )!;
  return visit(operation, {
    FragmentSpread(spread) {
      const fragment = fragments.get(spread.name.value)!;
      return {
        kind: Kind.INLINE_FRAGMENT,
        typeCondition: fragment.typeCondition,
        directives: spread.directives,
        selectionSet: fragment.selectionSet,
      };
    },
  });
}
