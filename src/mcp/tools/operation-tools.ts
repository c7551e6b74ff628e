// MCP read tools, declared once: each is a GraphQL operation in
// graphql/operations/mcp/<toolset>/<tool>.graphql — the folder is its toolset — whose leading
// comment is the description written for a model. Its JSON Schemas come from the operation
// (operation-schemas.ts); the operation is compiled at start (graphql/compile.ts) and run
// in-process against the same schema and context rules as /graphql and v1.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CompiledQuery } from 'graphql-jit';
import { Kind, typeFromAST, validate, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { compileOperation } from '../../graphql/compile.js';
import { graphqlFiles, operationFileDocument, OPERATIONS_DIR } from '../../graphql/operation-files.js';
import { grantedSections, isGrantVariable, type GrantedSection } from './granted-sections.js';
import { inputTypeSchema, selectionSchema, spelledOut, type JsonSchema } from './operation-schemas.js';
import { isToolset, TOOLSETS, type Toolset } from './toolsets.js';

export type { JsonSchema } from './operation-schemas.js';

export const MCP_OPERATIONS_DIR = path.resolve(import.meta.dirname, '../../../graphql/operations/mcp');

export interface OperationTool {
  name: string;
  title: string;
  description: string;
  /** The toolset it belongs to: the folder its operation is in (or, for a view's tool, its view's). */
  toolset: Toolset;
  /** Other toolsets whose data it cannot be drawn without: refused unless the consent includes them too. */
  alsoNeeds?: readonly Toolset[];
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** Admin-only tools are listed for owners and admins only. */
  adminOnly: boolean;
  compiled: CompiledQuery;
  /** Sections of another toolset's data, read only within the token's consent (granted-sections.ts). */
  sections: GrantedSection[];
  /**
   * The type a root field's answer must be for the tool to have read anything, by the field's answer key: a
   * `node(id:)` whose whole selection is `... on Client` answers `{}` for a report's id.
   */
  rootTypes: Readonly<Record<string, string>>;
}

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

export type ToolsetDeclaration = Pick<OperationTool, 'toolset' | 'alsoNeeds'>;

/**
 * How a tool's toolset is found from its file (relative to the loaded folder) and its name; throws
 * when it has none.
 */
export type ToolsetOf = (file: string, name: string) => ToolsetDeclaration;

/** The read tools' rule: the file's folder names its toolset. */
export const toolsetFolder: ToolsetOf = (file) => {
  const folder = path.dirname(file);
  if (isToolset(folder)) return { toolset: folder };
  throw new Error(
    `graphql/operations/mcp/${file}: put it in the folder of its toolset (${TOOLSETS.join(', ')}), which lists it`,
  );
};

/** Each root field whose whole selection is one type's inline fragment: the type, by the field's answer key. */
function rootTypesOf(operation: ReturnType<typeof spelledOut>): Record<string, string> {
  const types: Record<string, string> = {};
  for (const field of operation.selectionSet.selections) {
    if (field.kind !== Kind.FIELD) continue;
    const [only, ...more] = field.selectionSet?.selections ?? [];
    if (more.length || only?.kind !== Kind.INLINE_FRAGMENT || !only.typeCondition) continue;
    types[field.alias?.value ?? field.name.value] = only.typeCondition.name.value;
  }
  return types;
}

/** The input JSON Schema of an operation's variables (the grants a consent sets are not arguments). */
function variablesSchema(operation: ReturnType<typeof spelledOut>, schema: GraphQLSchema): JsonSchema {
  const variables = (operation.variableDefinitions ?? []).filter((variable) => !isGrantVariable(variable));
  const required = variables
    .filter((variable) => variable.type.kind === Kind.NON_NULL_TYPE && !variable.defaultValue)
    .map((variable) => variable.variable.name.value);
  return {
    type: 'object',
    properties: Object.fromEntries(
      variables.map((variable) => {
        const type = typeFromAST(schema, variable.type as never) as GraphQLInputType;
        return [variable.variable.name.value, inputTypeSchema(type)];
      }),
    ),
    // Unknown arguments are refused when called (tool-arguments.ts); saying so here would cost every tool's context.
    ...(required.length ? { required } : {}),
  };
}

function loadOperationTool(
  schema: GraphQLSchema,
  file: string,
  where: string,
  toolsetOf: (name: string) => ToolsetDeclaration,
): OperationTool {
  const document = operationFileDocument(file);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`${where}: ${errors.map((error) => error.message).join('; ')}`);
  const operation = spelledOut(document);
  if (!operation.name) throw new Error(`${where}: one named operation expected`);
  const description = leadingComment(readFileSync(file, 'utf8'));
  if (!description) throw new Error(`${where}: start with a # comment describing the tool for a model`);
  const name = toSnakeCase(operation.name.value);
  const sections = grantedSections(operation, where);
  return {
    name,
    title: toolTitle(operation.name.value),
    description,
    ...toolsetOf(name),
    inputSchema: variablesSchema(operation, schema),
    outputSchema: withWithheld(selectionSchema(schema.getQueryType()!, operation.selectionSet, schema), sections),
    adminOnly: /\bAdmin only\b/i.test(description),
    compiled: compileOperation(schema, document, where, operation.name.value),
    sections,
    rootTypes: rootTypesOf(operation),
  };
}

/** The tools of a folder's operations, in the order of their names. */
export function loadOperationTools(
  schema: GraphQLSchema,
  dir = MCP_OPERATIONS_DIR,
  toolsetOf: ToolsetOf = toolsetFolder,
): OperationTool[] {
  return graphqlFiles(dir)
    .sort((a, b) => (path.basename(a) < path.basename(b) ? -1 : 1))
    .map((file) =>
      loadOperationTool(schema, file, `graphql/operations/${path.relative(OPERATIONS_DIR, file)}`, (name) =>
        toolsetOf(path.relative(dir, file), name),
      ),
    );
}
