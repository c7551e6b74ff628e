// MCP read tools, declared once: each is a GraphQL operation in graphql/operations/mcp/*.graphql
// whose leading comment is the description written for a model. The input JSON Schema comes
// from the operation's variables and the output schema from its selection, so nothing is
// written twice; the operation is compiled at start (graphql/compile.ts) and run in-process against
// the same schema and context rules as /graphql and v1.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CompiledQuery } from 'graphql-jit';
import { compileOperation } from '../../graphql/compile.js';
import { operationFileDocument } from '../../graphql/operation-files.js';
import { ID_SCALARS } from '../../graphql/scalars.js';
import { idPrefixes } from '../../db/ids.js';
import { grantedSections, isGrantVariable, type GrantedSection } from './granted-sections.js';
import { MAX_LIST_ITEMS } from './tool-arguments.js';
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
  typeFromAST,
  validate,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

// Words a title spells its own way: "GetAiVisibilityMetrics" is "Get AI-visibility metrics".
const TITLE_WORDS: [RegExp, string][] = [
  [/\bai visibility\b/g, 'AI-visibility'],
  [/\burls\b/g, 'URLs'],
  [/\burl\b/g, 'URL'],
  [/\bapi\b/g, 'API'],
  [/\bkpi\b/g, 'KPI'],
];

/** A tool's title from its operation's name, in sentence case. */
export function toolTitle(operationName: string): string {
  const [first = '', ...rest] = operationName.replace(/([a-z])([A-Z])/g, '$1 $2').split(' ');
  return TITLE_WORDS.reduce(
    (title, [word, spelled]) => title.replace(word, spelled),
    [first, ...rest.map((word) => word.toLowerCase())].join(' '),
  );
}

export const MCP_OPERATIONS_DIR = path.resolve(import.meta.dirname, '../../../graphql/operations/mcp');

export type JsonSchema = Record<string, unknown>;

export interface OperationTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** Admin-only tools are listed for owners and admins only. */
  adminOnly: boolean;
  compiled: CompiledQuery;
  /** Sections of another toolset's data, read only within the token's consent (granted-sections.ts). */
  sections: GrantedSection[];
}

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

// Typed ids (ClientId, ReportId, …) are strings of a pattern: said once, as their prefix (the whole
// pattern cost ~8 tokens more per id argument on every tools/list; a malformed id is still refused
// by the scalar when the tool runs).
const ID_PATTERNS: Record<string, string> = Object.fromEntries(
  Object.entries(ID_SCALARS).map(([name, kind]) => [name, `^${idPrefixes[kind]}_`]),
);

function scalarSchema(type: GraphQLScalarType): JsonSchema {
  if (ID_PATTERNS[type.name]) return { type: 'string', pattern: ID_PATTERNS[type.name] };
  // Typed ids (ClientId, ReportId, …) are strings with a pattern in their description; GraphQL's
  // own scalars say nothing a model needs (ID's paragraph cost ~90 tokens per tool).
  // A `format` (date, date-time) says what the scalar's description would.
  const base = SCALAR_SCHEMAS[type.name] ?? { type: 'string' };
  const described = type.description && !isSpecifiedScalarType(type) && !base.format;
  return { ...base, ...(described ? { description: type.description } : {}) };
}

// Output schemas are what a model's context pays for on every tools/list (issue 24's budget):
// nullable as a type list (`["string", "null"]`) rather than anyOf, and without descriptions
// (the tool's description and the field names carry the meaning; inputs keep theirs).
/** Input enums with more values than this are described, not listed. */
const LONGEST_LISTED_ENUM = 12;

const nullable = (schema: JsonSchema): JsonSchema =>
  typeof schema.type !== 'string'
    ? schema
    : {
        ...schema,
        type: [schema.type, 'null'],
        ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
      };

/** Input enums said as a pattern: the date presets (16 values, ~55 tokens listed) in every report tool. Tested against the enum's values. */
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

/** JSON Schema of what a selection returns from a field of type `type`. */
// An output schema spells out this many object levels (a node() wrapper counts: the tool's field,
// its envelope); below them it says "object" and no more. The rows themselves are
// self-describing in structuredContent, and their fields in every tools/list cost the default
// toolsets ~900 tokens of the 8 000 budget.
const OUTPUT_SCHEMA_DEPTH = 2;

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

function selectionSchema(
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

/** The operation of a document with each named fragment spelled out in place, as an inline fragment on its type (the output schema is the same either way). */
function spelledOut(document: DocumentNode): OperationDefinitionNode {
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

const toSnakeCase = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** The description: the file's leading comment lines. "Admin only." in it marks an admin tool. */
function leadingComment(source: string): string {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (!line.startsWith('#')) break;
    lines.push(line.replace(/^#\s?/, ''));
  }
  return lines.join(' ').replace(/\s+/g, ' ').trim();
}

/** An answer that may leave sections out says which, with the toolset each needs. */
const withWithheld = (schema: JsonSchema, sections: readonly GrantedSection[]): JsonSchema => {
  if (!sections.length) return schema;
  return { ...schema, properties: { ...(schema.properties as object), withheld: { type: 'object' } } };
};

export function loadOperationTools(schema: GraphQLSchema, dir = MCP_OPERATIONS_DIR): OperationTool[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const document = operationFileDocument(path.join(dir, file));
      const errors = validate(schema, document);
      if (errors.length)
        throw new Error(`graphql/operations/mcp/${file}: ${errors.map((error) => error.message).join('; ')}`);
      const operation = spelledOut(document);
      if (!operation.name) throw new Error(`graphql/operations/mcp/${file}: one named operation expected`);
      const description = leadingComment(source);
      if (!description)
        throw new Error(`graphql/operations/mcp/${file}: start with a # comment describing the tool for a model`);
      const variables = (operation.variableDefinitions ?? []).filter((variable) => !isGrantVariable(variable));
      const sections = grantedSections(operation, `graphql/operations/${path.basename(dir)}/${file}`);
      const required = variables
        .filter((variable) => variable.type.kind === Kind.NON_NULL_TYPE && !variable.defaultValue)
        .map((variable) => variable.variable.name.value);
      const inputSchema: JsonSchema = {
        type: 'object',
        properties: Object.fromEntries(
          variables.map((variable) => {
            const type = typeFromAST(schema, variable.type as never) as GraphQLInputType;
            return [variable.variable.name.value, inputTypeSchema(type)];
          }),
        ),
        // Unknown arguments are refused when called (handler.ts); saying so here would cost every tool's context.
        ...(required.length ? { required } : {}),
      };
      const compiled = compileOperation(schema, document, `graphql/operations/mcp/${file}`, operation.name.value);
      return {
        name: toSnakeCase(operation.name.value),
        title: toolTitle(operation.name.value),
        description,
        inputSchema,
        outputSchema: withWithheld(selectionSchema(schema.getQueryType()!, operation.selectionSet, schema), sections),
        adminOnly: /\bAdmin only\b/i.test(description),
        compiled,
        sections,
      };
    });
}
