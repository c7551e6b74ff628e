// The schema has no mutations and no subscriptions. graphql-js noticed only when executing one
// ("Schema is not configured to execute mutation operation"), as a 200 without a code; this rule
// refuses it as the document is validated, like any other operation the schema cannot run.
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

export function readOnlyOperations(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (node.operation === 'query') return;
      context.reportError(
        new GraphQLError(`This API is read-only: it runs queries, not ${node.operation}s.`, { nodes: node }),
      );
    },
  };
}
