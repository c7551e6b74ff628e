// What every web-app route shares: the session behind the cookie, the same-origin rule for
// changes, the CSRF token of session-authenticated changes (errors as HTML or JSON: doors/boundary.ts).
import { timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import type { Config } from '../config/index.js';
import { ApiError } from '../errors/index.js';
import { readForm, type FormFields } from '../http/forms.js';
import { readCookie, sessionCookieName, type CookiePolicy } from './cookies.js';
import { findSession, type SessionView } from './session-store.js';

export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface WebSessions {
  cookiePolicy: CookiePolicy;
  tokenOf(request: Request): string | null;
  /** Whether the browser sends a session cookie (not read from the database): enough to choose what a page offers. */
  carriesSession(request: Request): boolean;
  read(request: Request): Promise<SessionView | null>;
  /** A change must come from our own pages: a foreign Origin (or Referer) is refused. */
  assertSameOrigin(request: Request): void;
  assertCsrf(session: SessionView, request: Request, fields: FormFields): void;
  /**
   * A change by a signed-in person: from this site, with a session (else 401), its form read, its CSRF token checked.
   */
  signedInChange(request: Request): Promise<{ session: SessionView; fields: FormFields; json: boolean }>;
}

export function createWebSessions(config: Config, pool: pg.Pool): WebSessions {
  const cookiePolicy = { secure: config.NODE_ENV === 'production' };
  const name = sessionCookieName(cookiePolicy);
  const tokenOf = (request: Request) => readCookie(request.headers.get('cookie'), name);
  const expectedOrigin = (request: Request) =>
    config.PUBLIC_BASE_URL ? new URL(config.PUBLIC_BASE_URL).origin : new URL(request.url).origin;

  const sessions: WebSessions = {
    cookiePolicy,
    tokenOf,
    carriesSession: (request) => tokenOf(request) !== null,
    async read(request) {
      const token = tokenOf(request);
      return token ? findSession(pool, token) : null;
    },
    assertSameOrigin(request) {
      // Each header a browser sends must say this site: Sec-Fetch-Site `same-origin`, and an Origin or Referer
      // of this origin. Our pages send no referrer (Referrer-Policy: no-referrer), so their form posts carry
      // `Origin: null`, taken only beside a Sec-Fetch-Site that says same-origin. A request naming no source
      // at all (curl) is left to the CSRF token.
      const site = request.headers.get('sec-fetch-site');
      const referer = request.headers.get('referer');
      const sources = [request.headers.get('origin'), referer === null ? null : safeOrigin(referer)];
      const here = (source: string | null) =>
        source === null || source === expectedOrigin(request) || (source === 'null' && site === 'same-origin');
      if ((site !== null && site !== 'same-origin') || !sources.every(here))
        throw new ApiError('forbidden', 'Cross-site request refused: changes must come from this site.');
    },
    assertCsrf(session, request, fields) {
      const given =
        request.headers.get(CSRF_HEADER) ??
        (typeof fields[CSRF_FIELD] === 'string' ? (fields[CSRF_FIELD] as string) : null);
      if (!given || !sameText(given, session.csrfToken))
        throw new ApiError(
          'forbidden',
          `Missing or wrong CSRF token: send the ${CSRF_FIELD} field of the page's form, ` +
            `or the ${CSRF_HEADER} header from GET /app/session.`,
        );
    },
    async signedInChange(request) {
      sessions.assertSameOrigin(request);
      const session = await sessions.read(request);
      if (!session) throw new ApiError('unauthenticated', 'Not signed in.');
      const { fields, json } = await readForm(request);
      sessions.assertCsrf(session, request, fields);
      return { session, fields, json };
    },
  };
  return sessions;
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
