// The text every door takes (query parameters, GraphQL strings, tool arguments, ingested fields)
// is Unicode without NUL: PostgreSQL's text type refuses U+0000 (the statement fails), and a lone
// UTF-16 surrogate (a JSON "\ud800") has no UTF-8 form, so the driver would store U+FFFD in its
// place. Raw bytes are checked where they arrive: a percent-encoded query value and a body must
// be valid UTF-8, where the platform would otherwise put U+FFFD in silently.
import { invalidParameter, ApiError } from '../errors/index.js';

export const TEXT_RULE = 'text must be valid UTF-8 without NUL (U+0000) characters';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be taken as text, or null. */
export function textProblem(value: string): string | null {
  if (value.includes('\0')) return 'contains a NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'is not valid Unicode (a lone surrogate)';
  return null;
}

/** The value, or a 400 `invalid_parameter` naming `param`. */
export function checkedText(param: string, value: string): string {
  const problem = textProblem(value);
  if (problem) throw invalidParameter(param, `${param} ${problem}; ${TEXT_RULE}.`);
  return value;
}

/**
 * Whether JSON text may parse to a value holding a string (or key) that textProblem refuses.
 * JSON refuses raw control characters, so a NUL can only come from a \u escape, and a lone
 * surrogate either from an escape or from the text itself: text without both parses to clean
 * strings, and the walk over the parsed value (most of a large ingest line's checking) is skipped.
 */
export const jsonMayHoldBadText = (json: string): boolean => json.includes('\\u') || LONE_SURROGATE.test(json);

export interface TextProblemAt {
  /** Where the string is: `variables.filter.tags[2]`, `runs[0].answer`; a key's own problem ends in `{key}`. */
  path: string;
  problem: string;
}

const MAX_DEPTH = 64;

/** The first string (object keys included) of a parsed JSON value that textProblem refuses, or null. */
export function findTextProblem(value: unknown, path: string, depth = 0): TextProblemAt | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path, problem } : null;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findTextProblem(value[index], `${path}[${index}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const keyProblem = textProblem(key);
    if (keyProblem) return { path: `${path ? `${path}.` : ''}{key}`, problem: keyProblem };
    const found = findTextProblem(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A body's bytes as text, or a 400 `invalid_body` when they are not UTF-8. */
export function utf8Text(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new ApiError('invalid_body', 'The body is not valid UTF-8.');
  }
}

/**
 * A query string's parameters, refused with 400 `invalid_parameter` naming the first parameter
 * whose name or value is not valid percent-encoded UTF-8 or holds NUL (URLSearchParams alone
 * would turn bad bytes into U+FFFD and keep NUL). With `isTaken`, only the parameters it names
 * are checked: v1 ignores the others, whatever they hold.
 */
export function checkedSearchParams(search: string, isTaken: (name: string) => boolean = () => true): URLSearchParams {
  const params = new URLSearchParams(search);
  // The URL parser percent-encodes control characters and non-ASCII: without a '%' all is ASCII text.
  if (!search.includes('%')) return params;
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const [rawName = '', ...rest] = pair.split('=');
    const name = decodedOr(rawName);
    if (name === null ? !isTaken(rawName) : !isTaken(name)) continue;
    const value = decodedOr(rest.join('='));
    const shownName = name ?? rawName.slice(0, 64);
    if (name === null || value === null)
      throw invalidParameter(shownName, `${shownName} is not valid percent-encoded UTF-8; ${TEXT_RULE}.`);
    checkedText(name, name);
    checkedText(name, value);
  }
  return params;
}

function decodedOr(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * A form's or a JSON object's fields as text, for a door that hands the body on to code of another
 * library (the OAuth server): a field holding NUL or a lone surrogate is 400 `invalid_parameter`
 * naming it, and a body that is not UTF-8 `invalid_body`. A JSON body that does not parse is left to
 * that library to refuse.
 */
export function checkBodyText(contentType: string | undefined, bytes: Uint8Array): void {
  if (bytes.length === 0) return;
  const text = utf8Text(bytes);
  if (!/\bjson\b/i.test(contentType ?? '')) {
    // A form's bytes are ASCII when percent-encoded as they should be; a raw NUL is no field's text either.
    if (text.includes('\0')) throw new ApiError('invalid_body', `The body holds a NUL character; ${TEXT_RULE}.`);
    checkedSearchParams(text);
    return;
  }
  if (!jsonMayHoldBadText(text)) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return;
  }
  const found = findTextProblem(parsed, '');
  if (found) throw invalidParameter(found.path, `${found.path} ${found.problem}; ${TEXT_RULE}.`);
}
