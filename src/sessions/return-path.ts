// Where a sign-in continues: the page that sent the person to sign in (a shared view's link with
// its range and filters), carried as `next` through the sign-in form and single sign-on. Only a
// page a person reads (settings, the views) and the OAuth consent of the MCP connector is taken,
// never another site nor a step of signing in: `next=/app/sso/start?…` would have started another
// identity's sign-in from this origin right after the person's own, past the check that refuses
// one started by another site (login CSRF). Anything else is dropped and the sign-in lands on the default page.
import { Response } from '../http/responses.js';
import { LOGIN_PATH } from './paths.js';

/** Longer than any view's address; a longer one is dropped rather than carried through forms and cookies. */
const MAX_RETURN_PATH_CHARS = 2000;
/** The pages a person is sent to sign in from: settings, the view pages, the MCP connector's consent. */
const RETURN_PAGES = ['/app/settings', '/app/reports/', '/app/ai-visibility/', '/oauth/interaction/'];
const isReturnPage = (pathname: string) =>
  RETURN_PAGES.some((page) => (page.endsWith('/') ? pathname.startsWith(page) : pathname === page));
const PARSE_BASE = 'http://return.invalid';

// `//host` and `/\host` are other hosts to a browser; visible ASCII only, so no CR/LF, space or raw non-ASCII.
const ONE_LEADING_SLASH = /^\/(?![/\\])/;
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/** The same rules once decoded, for whatever decodes it once more on the way (`/%2F%2Fevil.com`). */
function decodedStaysHere(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return ONE_LEADING_SLASH.test(decoded) && !/[\x00-\x1f\x7f\\]/.test(decoded);
}

/** `raw` as a path to send the person back to, or null when it is not one of ours. */
export function returnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > MAX_RETURN_PATH_CHARS) return null;
  if (!ONE_LEADING_SLASH.test(raw) || !PRINTABLE_ASCII.test(raw) || raw.includes('\\')) return null;
  if (!decodedStaysHere(raw)) return null;
  const url = new URL(raw, PARSE_BASE);
  if (url.origin !== PARSE_BASE) return null;
  // The prefix is checked on the path as the browser will resolve it (`/app/../x` is `/x`), and dot segments
  // spelled out in percent-encoding are refused rather than guessed at.
  if (!isReturnPage(url.pathname) || /%2e/i.test(url.pathname)) return null;
  return `${url.pathname}${url.search}`;
}

/** The sign-in page's address that returns to `url`'s page afterwards (or just the sign-in page). */
export function signInLocation(url: URL): string {
  const next = returnPath(`${url.pathname}${url.search}`);
  return next ? `${LOGIN_PATH}?next=${encodeURIComponent(next)}` : LOGIN_PATH;
}

/** A page's answer to a browser that is not signed in: to the sign-in page, and back here after it. */
export function signInRedirect(request: Request) {
  const headers = { Location: signInLocation(new URL(request.url)), 'Cache-Control': 'no-store' };
  return new Response(null, { status: 303, headers });
}
