// How the doors that run fixed operations — v1's routes and MCP's tools — compile them with
// graphql-jit: once at start, with one set of options.
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { isEnumType, type DocumentNode, type GraphQLSchema } from 'graphql';

/**
 * Leaf serialization off: a built-in scalar or enum value leaves as the resolver gave it. With it
 * on, graphql-jit passes every leaf through a call that first allocates the leaf's response path
 * and error locations (docs/decisions/request-path-allocations.md). Custom scalars (dates,
 * ids, JSON) still serialize. What this relies on is checked: an enum that stands for another
 * value refuses to compile (it would leave as that value), and test/rest/operations.test.ts and
 * test/mcp/mcp.test.ts hold every route and read tool to /graphql's answer for the same operation,
 * where graphql-js serializes each leaf.
 */
const COMPILE_OPTIONS = { disableLeafSerialization: true } as const;

const checkedSchemas = new WeakSet<GraphQLSchema>();

/** Compiles one operation of `document`; `where` names it in the error that stops the start. */
export function compileOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  where: string,
  operationName?: string,
): CompiledQuery {
  if (!checkedSchemas.has(schema)) {
    assertEnumsLeaveByName(schema);
    checkedSchemas.add(schema);
  }
  const compiled = compileQuery(schema, document, operationName, COMPILE_OPTIONS);
  if (!isCompiledQuery(compiled))
    throw new Error(`${where}: ${compiled.errors?.map((error) => error.message).join('; ')}`);
  return compiled;
}

/** Without leaf serialization an enum value leaves as its internal value: each must be its own name. */
export function assertEnumsLeaveByName(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith('__')) continue;
    const renamed = type.getValues().filter((value) => value.value !== value.name);
    const standsFor = renamed.map((value) => `${value.name} stands for ${JSON.stringify(value.value)}`);
    if (renamed.length)
      throw new Error(
        `enum ${type.name}: ${standsFor.join(', ')}; ` +
          'compiled operations leave enum values as given, so each must be its own name',
      );
  }
}
