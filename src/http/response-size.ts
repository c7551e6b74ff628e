// The cap on one JSON answer, checked on the value before it is serialized: a small request can
// select a huge answer (the same long texts under many aliases), and the serialized string — and
// its copy as a body — is what took the memory (a 4 KB request answered 282 MB, issue 39). The
// result tree itself shares its strings with the rows the loaders read, so it stays small.
import { ApiError } from '../errors/index.js';

// What a number, a boolean or null adds to the JSON text: an upper bound is not needed, the
// strings are what make an answer large.
const SCALAR_CHARS = 8;

// What JSON writes escaped: the quote, the backslash and the control characters.
const ESCAPED = /["\\\u0000-\u001f]/;
const NOT_ESCAPED = /[^"\\\u0000-\u001f]/g;
// Escaped in two bytes (\" \\ \b \f \n \r \t); every other control character takes six (\u0001).
const SHORT_ESCAPES = '"\\\b\f\n\r\t';

/**
 * The bytes `text` takes in a JSON answer, quotes included: UTF-8 (up to three bytes a
 * character) and escapes counted, without building the escaped text. A text of control
 * characters is six times its length: counting characters let an answer pass the cap six times over.
 */
export function jsonStringBytes(text: string): number {
  let bytes = Buffer.byteLength(text, 'utf8') + 2;
  if (!ESCAPED.test(text)) return bytes;
  for (const char of text.replace(NOT_ESCAPED, '')) bytes += SHORT_ESCAPES.includes(char) ? 1 : 5;
  return bytes;
}

/** What a string, a number, a boolean or null adds: its characters, or its exact bytes. */
const leafSize = (leaf: unknown, exact: boolean) =>
  typeof leaf !== 'string' ? SCALAR_CHARS : exact ? jsonStringBytes(leaf) : leaf.length + 2;

/** What is `left` after `child`: negative once the count ran over, with the way to it in `path`. */
const leftAfter = (child: unknown, left: number, exact: boolean, path: (string | number)[]): number =>
  typeof child === 'object' && child !== null ? leftAfterNode(child, left, exact, path) : left - leafSize(child, exact);

/**
 * The walk behind the cap, on every answer: the count is passed along and returned (a closure
 * over it, called per value, took twice the time on a 1 000-row metrics answer), and the path is
 * built only on the way out of a value that ran over. An array's brackets and commas, an
 * object's braces and each key's quotes, colon and comma are counted here.
 */
function leftAfterNode(node: object, left: number, exact: boolean, path: (string | number)[]): number {
  if (Array.isArray(node)) {
    left -= 2 + node.length;
    for (let index = 0; index < node.length; index++) {
      left = leftAfter(node[index], left, exact, path);
      if (left < 0) return (path.push(index), left);
    }
    return left;
  }
  left -= 2;
  for (const key in node) {
    left = leftAfter((node as Record<string, unknown>)[key], left - key.length - 4, exact, path);
    if (left < 0) return (path.push(key), left);
  }
  return left;
}

/** JSON writes no character in more than six bytes (\u0001; UTF-8 at most three per UTF-16 unit). */
const MAX_BYTES_PER_CHAR = 6;

/**
 * Where `value`, serialized as JSON, passes `maxBytes` bytes: the path to the value at which
 * the count ran over (e.g. `nodes.3.runs.nodes.17.text`), or null when it fits. Stops at the
 * first value over, so measuring a huge answer costs no more than measuring the cap. Most answers
 * fit even at six bytes a character, which counting characters shows at once; only the others
 * have their bytes counted (exactly, which cost a JSON.stringify's time on every answer).
 */
export function pathOverSize(value: unknown, maxBytes: number): string | null {
  if (leftAfter(value, Math.floor(maxBytes / MAX_BYTES_PER_CHAR), false, []) >= 0) return null;
  const path: (string | number)[] = [];
  return leftAfter(value, maxBytes, true, path) >= 0 ? null : path.reverse().join('.');
}

const sizeOf = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The refusal of an answer over the cap, naming where it ran over and what to narrow. */
export const responseTooLarge = (maxBytes: number, at: string) =>
  new ApiError(
    'response_too_large',
    `The answer would exceed ${sizeOf(maxBytes)} (reached at ${at || 'its first value'}). ` +
      'Ask for less: fewer items (first, limit, the ids of nodes), fewer aliases, ' +
      "or leave out long fields such as an answer's text and read them one at a time.",
  );

/**
 * The refusal of a read whose rows would pass the cap before any answer is made: long texts read
 * for an answer are held in memory whole, whatever the answer then keeps of them.
 */
export const readTooLarge = (maxBytes: number, what: string) =>
  new ApiError(
    'response_too_large',
    `The ${what} this request reads would exceed ${sizeOf(maxBytes)}. ` +
      'Ask for fewer at a time (a smaller limit or page size, fewer ids) and page through the rest.',
  );

/** Throws response_too_large when `value` would serialize to more than `maxBytes`. */
export function assertResponseSize(value: unknown, maxBytes: number): void {
  const at = pathOverSize(value, maxBytes);
  if (at !== null) throw responseTooLarge(maxBytes, at);
}
