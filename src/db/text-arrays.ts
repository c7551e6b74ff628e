// text[] values as PostgreSQL writes them ('{google_ads,meta_ads}'). pg's own parser
// (postgres-array) walks the text a character at a time and builds each element from pieces: a
// list of 13 AI projects with five array columns allocated ~60 KB per request in it, a third of
// the request. PostgreSQL quotes an element whenever it is empty, holds a delimiter, brace,
// quote, backslash or white space, or reads NULL; so without a quote or backslash, and without
// nested braces, the elements are exactly the text between the commas (unquoted NULL is null).
// Everything else — quoted elements, nested or bounded arrays — is left to pg's parser.

/** PostgreSQL's type oid of text[] (pg.types.builtins names only element types). */
export const TEXT_ARRAY_OID: number = 1009;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN = 123;
const CLOSE = 125;

/**
 * The elements, or null when the text is not a one-dimensional array without quoted elements (the
 * caller's parser then reads it).
 */
export function parseTextArray(text: string): (string | null)[] | null {
  const last = text.length - 1;
  if (last < 1 || text.charCodeAt(0) !== OPEN || text.charCodeAt(last) !== CLOSE) return null;
  if (last === 1) return [];
  for (let at = 1; at < last; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE || code === BACKSLASH || code === OPEN || code === CLOSE) return null;
  }
  const elements: (string | null)[] = text.slice(1, last).split(',');
  for (let index = 0; index < elements.length; index++) if (elements[index] === 'NULL') elements[index] = null;
  return elements;
}
