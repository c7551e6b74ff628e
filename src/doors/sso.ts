// GET /app/sso/start?email=… and GET /app/sso/callback: the two legs of single sign-on;
// POST /app/sso/link: a signed-in person links their company sign-in to their account.
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import type { PublicOrigin } from '../http/public-origin.js';
import { Response } from '../http/responses.js';
import { html, htmlResponse, page } from '../http/html.js';
import { sessionCookie, type CookiePolicy } from '../sessions/index.js';
import { deleteSession, returnPath } from '../sessions/index.js';
import { SETTINGS_PATH } from '../settings/index.js';
import type { WebSessions } from '../sessions/index.js';
import { SSO_CALLBACK_PATH, type createSso } from '../sso/index.js';
import { routeByPath } from './path-routes.js';

export const SSO_START_PATH = '/app/sso/start';
export const SSO_LINK_PATH = '/app/sso/link';

/**
 * On to the identity provider by a page that navigates there itself (Refresh, and a link to
 * follow by hand), not by a redirect: the sign-in and settings pages let their forms go to this
 * origin only (CSP form-action 'self'), browsers hold a form's redirects to that too, and the
 * provider's origin is not known when those pages are made — a 302 there was blocked in Chromium.
 */
const toProvider = (location: string, cookie: string) =>
  htmlResponse(
    page(
      'Continuing to your company sign-in',
      html`<section class="login"><h1>Continuing to your company sign-in</h1>
<p>If nothing happens, <a href="${location}">continue to your company's sign-in</a>.</p></section>`,
    ),
    200,
    { Refresh: `0; url=${location}`, 'Set-Cookie': cookie },
  );

export function createSsoHandler(deps: {
  sso: ReturnType<typeof createSso>;
  pool: pg.Pool;
  sessions: WebSessions;
  cookiePolicy: CookiePolicy;
  publicOrigin: PublicOrigin;
}) {
  const link = async (request: Request) => {
    const { session } = await deps.sessions.signedInChange(request);
    const { location, cookie } = await deps.sso.startLink(session, deps.publicOrigin.value);
    return toProvider(location, cookie);
  };
  const start = async (request: Request, url: URL) => {
    // Login CSRF: another site must not start a sign-in in this browser (the flow cookie it
    // would set is what binds the callback's state), a sibling subdomain (same-site) neither; the
    // sign-in page's form (same-origin) and an address typed or bookmarked (none) may.
    const site = request.headers.get('sec-fetch-site');
    if (site !== null && site !== 'same-origin' && site !== 'none')
      throw new ApiError('forbidden', 'Start single sign-on from the sign-in page.');
    const email = url.searchParams.get('email');
    if (!email) throw new ApiError('invalid_parameter', 'Give your work email address.', { param: 'email' });
    const returnTo = returnPath(url.searchParams.get('next'));
    const { location, cookie } = await deps.sso.start(email, deps.publicOrigin.value, returnTo);
    return toProvider(location, cookie);
  };
  const callback = async (request: Request, url: URL) => {
    const finished = await deps.sso.finish(request, url);
    // As with passwords: a session the browser came with is ended, the new one is fresh.
    const previous = deps.sessions.tokenOf(request);
    if (previous) await deleteSession(deps.pool, previous);
    const location = returnPath(finished.returnTo) ?? SETTINGS_PATH;
    const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
    headers.append('Set-Cookie', finished.clearCookie);
    headers.append(
      'Set-Cookie',
      sessionCookie(deps.cookiePolicy, finished.token, (finished.expiresAt.getTime() - Date.now()) / 1000),
    );
    return new Response(null, { status: 303, headers });
  };
  const route = routeByPath<URL>({
    [SSO_LINK_PATH]: { POST: link },
    [SSO_START_PATH]: { GET: start },
    [SSO_CALLBACK_PATH]: { GET: callback },
  });
  return (request: Request, url: URL) => route(request, url.pathname, url);
}
