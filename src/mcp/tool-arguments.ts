// What a tool's arguments must be before the tool sees them, whatever its schema says: only
// names the tool declares, and text that PostgreSQL and every reader can hold (no NUL, no
// broken UTF-8). Errors name the argument and stay small however large the input. Pure.
import { ApiError } from '../errors/index.js';

/** Names an error lists before it says "and N more". */
export const LISTED_ARGUMENT_NAMES = 10;
/** Characters of a name an error quotes. */
const QUOTED_NAME_CHARACTERS = 64;

const quoted = (name: string) => JSON.stringify(name.length > QUOTED_NAME_CHARACTERS ? `${name.slice(0, QUOTED_NAME_CHARACTERS)}…` : name);

/** "a, b, c" or "a, b, … and 58 more". */
export function listNames(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_ARGUMENT_NAMES).map(quoted).join(', ');
  return names.length > LISTED_ARGUMENT_NAMES ? `${shown} and ${names.length - LISTED_ARGUMENT_NAMES} more` : shown;
}

// In a Unicode-mode pattern a pair of surrogates is one code point: only unpaired ones match.
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a text cannot be stored or read back as it was sent, or null. */
function textFault(text: string, bodyWasUtf8: boolean): string | null {
  if (text.includes('\0')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode (an unpaired surrogate)';
  // The body's bytes were not UTF-8: the decoder put U+FFFD where they were broken.
  if (!bodyWasUtf8 && text.includes('\uFFFD')) return 'is not valid UTF-8';
  return null;
}

/** The first text inside `value` (strings, object keys, nested) with a fault, as [path, fault]. */
function firstTextFault(value: unknown, path: string, bodyWasUtf8: boolean): [string, string] | null {
  if (typeof value === 'string') {
    const fault = textFault(value, bodyWasUtf8);
    return fault ? [path, fault] : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = firstTextFault(value[index], `${path}[${index}]`, bodyWasUtf8);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyFault = textFault(key, bodyWasUtf8);
    if (keyFault) return [path, `has a key that ${keyFault}`];
    const found = firstTextFault(item, `${path}.${key}`, bodyWasUtf8);
    if (found) return found;
  }
  return null;
}

/**
 * The argument error for `args` against the names `declared`, or null. `bodyWasUtf8` is false
 * when the request's bytes had to be repaired to decode (then U+FFFD in an argument is refused).
 */
export function argumentError(args: Record<string, unknown>, declared: Readonly<Record<string, unknown>>, bodyWasUtf8: boolean): ApiError | null {
  const unknown = Object.keys(args).filter((name) => !Object.hasOwn(declared, name));
  if (unknown.length) {
    const known = Object.keys(declared);
    return new ApiError('invalid_parameter', `Unknown argument${unknown.length > 1 ? 's' : ''} ${listNames(unknown)}; this tool takes ${known.length ? listNames(known) : 'no arguments'}.`, { param: unknown[0]!.slice(0, QUOTED_NAME_CHARACTERS) });
  }
  for (const [name, value] of Object.entries(args)) {
    const found = firstTextFault(value, name, bodyWasUtf8);
    if (found) return new ApiError('invalid_parameter', `Argument ${quoted(found[0])} ${found[1]}.`, { param: name });
  }
  return null;
}
