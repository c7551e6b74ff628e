// /app/login, /app/logout and /app/session: password sign-in (form or JSON), sign-out, who am I
// (with the CSRF token for JSON clients), and switching the active workspace.
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import { html, htmlResponse, page, type SafeHtml } from '../http/html.js';
import { readForm, textField } from '../http/forms.js';
import { jsonResponse, Response } from '../http/responses.js';
import { clearedSessionCookie, sessionCookie } from './cookies.js';
import { signIn } from './login.js';
import { deleteSession, switchWorkspace, workspacesOf } from './session-store.js';
import type { WebSessions } from './web-session.js';

export const LOGIN_PATH = '/app/login';
export const SETTINGS_PATH = '/app/settings';

// Where a sign-in may continue: our own pages and the OAuth consent of the MCP connector, never another site.
const SAFE_NEXT = /^\/(app\/|oauth\/interaction\/)[A-Za-z0-9/_-]*$/;
export const safeNext = (next: string | null | undefined) => (next && SAFE_NEXT.test(next) ? next : null);

export function loginPage(options: { error?: string; email?: string; next?: string | null } = {}): SafeHtml {
  return page(
    'Sign in',
    html`<div class="login"><section>
<h1>Sign in to Signalboard</h1>
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
<form method="post" action="${LOGIN_PATH}">
  ${options.next ? html`<input type="hidden" name="next" value="${options.next}">` : ''}
  <label>Email <input type="email" name="email" autocomplete="username" required value="${options.email ?? ''}"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
</section><section>
<h2>Single sign-on</h2>
<form method="get" action="/app/sso/start">
  <label>Work email <input type="email" name="email" required></label>
  <button type="submit" class="secondary">Continue with your company's sign-in</button>
</form>
</section></div>`,
  );
}

const redirect = (location: string, headers: Record<string, string> = {}) => new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', ...headers } });

export function createSessionHandler(deps: { pool: pg.Pool; sessions: WebSessions }) {
  const { pool, sessions } = deps;
  const cookieFor = (token: string, expiresAt: Date) => sessionCookie(sessions.cookiePolicy, token, (expiresAt.getTime() - Date.now()) / 1000);

  async function login(request: Request, address: string): Promise<Response> {
    sessions.assertSameOrigin(request);
    const { fields, json } = await readForm(request);
    const email = textField(fields, 'email', { max: 320 }) ?? '';
    const password = typeof fields.password === 'string' ? fields.password : '';
    // Whatever session the browser came with is ended: the one after sign-in is always new (no fixation).
    const previous = sessions.tokenOf(request);
    if (previous) await deleteSession(pool, previous);
    try {
      if (!email || !password) throw new ApiError('invalid_body', 'Send email and password.');
      const started = await signIn(pool, { email, password, address, workspaceSlug: textField(fields, 'workspace') });
      const headers = { 'Set-Cookie': cookieFor(started.token, started.expiresAt) };
      return json ? jsonResponse({ data: { signedIn: true, expiresAt: started.expiresAt.toISOString() } }, 200, { ...headers, 'Cache-Control': 'no-store' }) : redirect(safeNext(textField(fields, 'next')) ?? SETTINGS_PATH, headers);
    } catch (error) {
      if (json || !(error instanceof ApiError)) throw error;
      return htmlResponse(loginPage({ error: error.message, email, next: safeNext(textField(fields, 'next')) }), error.status, error.headers);
    }
  }

  async function logout(request: Request): Promise<Response> {
    sessions.assertSameOrigin(request);
    const { json } = await readForm(request);
    const token = sessions.tokenOf(request);
    if (token) await deleteSession(pool, token);
    const headers = { 'Set-Cookie': clearedSessionCookie(sessions.cookiePolicy) };
    return json ? jsonResponse({ data: { signedOut: true } }, 200, headers) : redirect(LOGIN_PATH, headers);
  }

  async function current(request: Request): Promise<Response> {
    const session = await sessions.read(request);
    if (!session) throw new ApiError('unauthenticated', 'Not signed in.');
    return jsonResponse(
      {
        data: {
          user: { id: session.userId, email: session.email, name: session.name },
          workspace: { slug: session.workspaceSlug, name: session.workspaceName, plan: session.plan },
          role: session.role,
          workspaces: await workspacesOf(pool, session.userId),
          csrfToken: session.csrfToken,
          expiresAt: session.expiresAt.toISOString(),
        },
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  }

  async function chooseWorkspace(request: Request): Promise<Response> {
    sessions.assertSameOrigin(request);
    const session = await sessions.read(request);
    if (!session) throw new ApiError('unauthenticated', 'Not signed in.');
    const { fields, json } = await readForm(request);
    sessions.assertCsrf(session, request, fields);
    const slug = textField(fields, 'workspace', { required: true })!;
    if (!(await switchWorkspace(pool, session.id, session.userId, slug))) throw new ApiError('not_found', `You are not a member of a workspace "${slug}".`);
    return json ? jsonResponse({ data: { workspace: slug } }) : redirect(SETTINGS_PATH);
  }

  return async function handleSession(request: Request, path: string, address: string): Promise<Response | null> {
    const method = request.method;
    if (path === LOGIN_PATH && method === 'GET') return htmlResponse(loginPage({ next: safeNext(new URL(request.url).searchParams.get('next')) }));
    if (path === LOGIN_PATH && method === 'POST') return login(request, address);
    if (path === '/app/logout' && method === 'POST') return logout(request);
    if (path === '/app/session' && method === 'GET') return current(request);
    if (path === '/app/session/workspace' && method === 'POST') return chooseWorkspace(request);
    if ([LOGIN_PATH, '/app/logout', '/app/session', '/app/session/workspace'].includes(path)) {
      throw new ApiError('method_not_allowed', `${method} is not allowed here.`);
    }
    return null;
  };
}

