// The one reading of a request's path. Every door checks its whole path here before routing, and
// reads a segment it needs decoded (an id, a toolset list) through the same function, so no door
// sees a malformed escape (a URIError was a 500 on /app and a 200 on /mcp) or a control character
// (an id holding NUL reached PostgreSQL, which refuses it). Query strings have their own reading,
// which names the parameter at fault (text-input.ts).
import { ApiError } from '../errors/index.js';

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The path (or a segment of it) decoded; a 400 when its percent-escapes are not UTF-8 or it holds
 * a control character (raw or escaped: `%00`, `%0A`), which no path of ours does.
 */
export function decodePath(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw malformed();
  }
  if (CONTROL.test(decoded)) throw malformed();
  return decoded;
}

/**
 * Whether a request target is a path (RFC 9112's origin-form), the form the app serves: not `*`, and
 * not an absolute URL (the node server turns an absolute-form target that parses into its path first).
 */
export const isOriginForm = (target: string | undefined): target is string =>
  target !== undefined && target.startsWith('/') && URL.canParse(target, 'http://h');

const malformed = () =>
  new ApiError('bad_request', 'The path is not valid percent-encoded UTF-8, or holds a control character.');
