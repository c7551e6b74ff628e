// Compiled execution (graphql-jit) for the fixed operations SOFA runs per route: the
// documents never change, so each is compiled once and reused by every request.
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { execute, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';

export function compiledExecutor(schema: GraphQLSchema) {
  const compiled = new WeakMap<DocumentNode, CompiledQuery | null>();
  return function executeCompiled(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
    let query = compiled.get(args.document);
    if (query === undefined) {
      const result = compileQuery(schema, args.document, args.operationName ?? undefined);
      query = isCompiledQuery(result) ? result : null;
      compiled.set(args.document, query);
    }
    // Documents graphql-jit cannot compile run through graphql-js, with the same result.
    if (!query) return execute(args);
    return query.query(args.rootValue, args.contextValue, args.variableValues ?? {}) as Promise<ExecutionResult> | ExecutionResult;
  };
}
