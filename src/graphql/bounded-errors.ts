// A GraphQL answer's errors, bounded like every door's error answer (http/responses.ts): each
// message clipped, and the list cut where it would pass the budget, its last entry counting the
// rest. GraphQL's own messages quote the document and the variables ("Cannot query field
// "<name>"", "Variable "$d" got invalid value "<value>""): a 1 MB request got back 0.9 MB of errors.
import { GraphQLError } from 'graphql';
import { clippedText, ERROR_TEXT_LIMITS } from '../errors/index.js';
import { jsonStringBytes } from '../http/response-size.js';

/** The bytes the errors of one answer may take: the error envelope's bound with room for the rest of the answer. */
const ERRORS_BUDGET_BYTES = 48 * 1024;
/** What an error adds besides its message (locations, path, extensions), counted generously. */
const ERROR_OVERHEAD_BYTES = 256;

const clipped = (error: GraphQLError): GraphQLError =>
  error.message.length <= ERROR_TEXT_LIMITS.message
    ? error
    : new GraphQLError(clippedText(error.message, ERROR_TEXT_LIMITS.message), {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        originalError: error.originalError,
        extensions: error.extensions,
      });

/** `errors` as they are when they are small, else clipped and cut to the budget with a count of the rest. */
export function boundedErrors(errors: readonly GraphQLError[]): readonly GraphQLError[] {
  let left = ERRORS_BUDGET_BYTES;
  const kept: GraphQLError[] = [];
  for (const error of errors) {
    const bounded = clipped(error);
    left -= jsonStringBytes(bounded.message) + ERROR_OVERHEAD_BYTES;
    if (left < 0) {
      const more = errors.length - kept.length;
      kept.push(
        new GraphQLError(`${more} more error${more === 1 ? '' : 's'} not listed.`, {
          extensions: kept[0]?.extensions ?? {},
        }),
      );
      return kept;
    }
    kept.push(bounded);
  }
  return kept.every((error, index) => error === errors[index]) ? errors : kept;
}
