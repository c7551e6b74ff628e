// What a tool's arguments must be before the tool sees them, whatever its schema says: only the
// names the tool declares, and text under the service's one text rule (http/text-input.ts).
// Errors name the argument and stay small however large the input. Pure.
import { ApiError } from '../../errors/index.js';
import { findTextProblem, TEXT_RULE } from '../../http/text-input.js';

/** Names an error lists before it says "and N more". */
export const LISTED_ARGUMENT_NAMES = 10;
/** Characters of a name an error quotes. */
const QUOTED_NAME_CHARACTERS = 64;

const quoted = (name: string) =>
  JSON.stringify(name.length > QUOTED_NAME_CHARACTERS ? `${name.slice(0, QUOTED_NAME_CHARACTERS)}…` : name);

/** `"a", "b", "c"`, or the first ten and `and 58 more`. */
export function listNames(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_ARGUMENT_NAMES).map(quoted).join(', ');
  return names.length > LISTED_ARGUMENT_NAMES ? `${shown} and ${names.length - LISTED_ARGUMENT_NAMES} more` : shown;
}

/**
 * Items a list argument may hold (the longest a tool takes is a report's metrics, a few dozen). A
 * longer list is refused before GraphQL coerces it: coercion makes an error per bad item, with no
 * cap in the compiled operation, and 90 000 of them held the event loop for seconds.
 */
export const MAX_LIST_ITEMS = 100;

/** The path of the first list longer than MAX_LIST_ITEMS in `value`, or null. */
function longListAt(value: unknown, path: string): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value) && value.length > MAX_LIST_ITEMS) return path;
  for (const [key, item] of Object.entries(value)) {
    const found = longListAt(item, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return null;
}

/** The argument error for `args` against the names `declared`, or null. */
export function argumentError(
  args: Record<string, unknown>,
  declared: Readonly<Record<string, unknown>>,
): ApiError | null {
  const unknown = Object.keys(args).filter((name) => !Object.hasOwn(declared, name));
  if (unknown.length) {
    const known = Object.keys(declared);
    return new ApiError(
      'invalid_parameter',
      `Unknown argument${unknown.length > 1 ? 's' : ''} ${listNames(unknown)}; this tool ` +
        `takes ${known.length ? listNames(known) : 'no arguments'}.`,
      { param: unknown[0]!.slice(0, QUOTED_NAME_CHARACTERS) },
    );
  }
  const long = longListAt(args, '');
  if (long)
    return new ApiError('invalid_parameter', `Argument ${quoted(long)} lists more than ${MAX_LIST_ITEMS} items.`, {
      param: long.split(/[.[]/)[0]!,
    });
  const found = findTextProblem(args, '');
  if (!found) return null;
  return new ApiError('invalid_parameter', `Argument ${quoted(found.path)} ${found.problem}; ${TEXT_RULE}.`, {
    param: found.path.split(/[.[]/)[0]!,
  });
}

const VARIABLE_ERROR = /^Variable "\$(\w+)"/;
const MISSING = / was not provided\.$/;

/**
 * The caller's mistake in errors from running a read tool's operation, or null: every error is
 * an argument GraphQL could not take as its variable (wrong type, missing). The compiled
 * operation's message says only "Expected type Date"; the scalar's own reason (the allowed
 * range) is its originalError's, and is worded as v1 words it: `Invalid dateFrom: …`.
 */
export function variableArgumentError(
  errors: readonly { message: string; extensions?: Record<string, unknown>; originalError?: Error | null }[],
): ApiError | null {
  if (!errors.length || !errors.every((error) => !error.extensions?.code && VARIABLE_ERROR.test(error.message)))
    return null;
  const [first] = errors;
  const name = VARIABLE_ERROR.exec(first!.message)![1]!;
  const reason = first!.originalError?.message;
  // GraphQL's words for a missing argument name its variable and type ("$dimension" of type "String!").
  if (!reason && MISSING.test(first!.message))
    return new ApiError('invalid_parameter', `Argument ${JSON.stringify(name)} is required.`, { param: name });
  return new ApiError('invalid_parameter', reason ? `Invalid ${name}: ${reason}` : first!.message, { param: name });
}
