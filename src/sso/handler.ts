// GET /app/sso/start?email=… and GET /app/sso/callback: the two legs of single sign-on.
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import { Response } from '../http/responses.js';
import { sessionCookie, type CookiePolicy } from '../sessions/cookies.js';
import { deleteSession } from '../sessions/session-store.js';
import { SETTINGS_PATH } from '../sessions/handler.js';
import type { WebSessions } from '../sessions/web-session.js';
import { SSO_CALLBACK_PATH, type createSso } from './oidc.js';

export function createSsoHandler(deps: { sso: ReturnType<typeof createSso>; pool: pg.Pool; sessions: WebSessions; cookiePolicy: CookiePolicy; baseUrlOf(request: Request): string }) {
  return async function handleSso(request: Request, url: URL): Promise<Response | null> {
    if (url.pathname !== '/app/sso/start' && url.pathname !== SSO_CALLBACK_PATH) return null;
    if (request.method !== 'GET') throw new ApiError('method_not_allowed', 'Use GET.');
    if (url.pathname === '/app/sso/start') {
      const email = url.searchParams.get('email');
      if (!email) throw new ApiError('invalid_parameter', 'Give your work email address.', { param: 'email' });
      const { location, cookie } = await deps.sso.start(email, deps.baseUrlOf(request));
      return new Response(null, { status: 302, headers: { Location: location, 'Set-Cookie': cookie, 'Cache-Control': 'no-store' } });
    }
    const finished = await deps.sso.finish(request, url);
    // As with passwords: a session the browser came with is ended, the new one is fresh.
    const previous = deps.sessions.tokenOf(request);
    if (previous) await deleteSession(deps.pool, previous);
    const headers = new Headers({ Location: SETTINGS_PATH, 'Cache-Control': 'no-store' });
    headers.append('Set-Cookie', finished.clearCookie);
    headers.append('Set-Cookie', sessionCookie(deps.cookiePolicy, finished.token, (finished.expiresAt.getTime() - Date.now()) / 1000));
    return new Response(null, { status: 303, headers });
  };
}
