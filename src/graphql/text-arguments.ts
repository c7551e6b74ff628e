// GraphQL strings follow the service's text rule (http/text-input.ts) before anything executes:
// a NUL in an argument would otherwise reach PostgreSQL and fail the statement (a 500), and a
// lone surrogate would be stored as U+FFFD. Literals in the document and variables are both read.
import { BREAK, visit, type DocumentNode } from 'graphql';
import { invalidParameter, type ApiError } from '../errors/index.js';
import { findTextProblem, textProblem, TEXT_RULE } from '../http/text-input.js';

/** The 400 `invalid_parameter` for the first refused string, naming its argument or variable, or null. */
export function textArgumentError(
  document: DocumentNode,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): ApiError | null {
  let refused: { param: string; problem: string } | null = null;
  const argumentNames: string[] = [];
  visit(document, {
    Argument: { enter: (node) => void argumentNames.push(node.name.value), leave: () => void argumentNames.pop() },
    StringValue: (node) => {
      const problem = textProblem(node.value);
      if (!problem) return undefined;
      refused = { param: argumentNames.at(-1) ?? 'query', problem };
      return BREAK;
    },
  });
  if (!refused && variables) {
    const found = findTextProblem(variables, '');
    if (found) refused = { param: `$${found.path}`, problem: found.problem };
  }
  if (!refused) return null;
  const { param, problem } = refused;
  return invalidParameter(param, `${param} ${problem}; ${TEXT_RULE}.`);
}
