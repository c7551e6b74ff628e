// /app/login, /app/logout and /app/session: password sign-in (form or JSON), sign-out, who am I
// (with the CSRF token for JSON clients), switching the active workspace; /app/password*: the
// forgotten-password link and changing a password.
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import { recordPersonAudit } from '../audit/index.js';
import { html, htmlResponse, page, type SafeHtml } from '../http/html.js';
import { readForm, textField } from '../http/forms.js';
import { jsonResponse, Response } from '../http/responses.js';
import type { Mailer } from '../mail/mailer.js';
import type { PublicOrigin } from '../http/public-origin.js';
import { SETTINGS_PATH } from '../settings/index.js';
import { clearedSessionCookie, sessionCookie } from './cookies.js';
import { signIn } from './login.js';
import { changePassword, issueResetLink, reservePasswordReset, resetMail, resetPassword } from './password-reset.js';
import { afterAnswer } from '../http/after-answer.js';
import {
  FORGOT_PASSWORD_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  PASSWORD_PATH,
  RESET_PASSWORD_PATH,
  SESSION_PATH,
  SWITCH_WORKSPACE_PATH,
} from './paths.js';
import { deleteSession, switchWorkspace, workspacesOf } from './session-store.js';
import { returnPath } from './return-path.js';
import type { WebSessions } from './web-session.js';

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
<p><a href="${FORGOT_PASSWORD_PATH}">Forgot your password?</a></p>
</section><section>
<h2>Single sign-on</h2>
<form method="get" action="/app/sso/start">
  ${options.next ? html`<input type="hidden" name="next" value="${options.next}">` : ''}
  <label>Work email <input type="email" name="email" required></label>
  <button type="submit" class="secondary">Continue with your company's sign-in</button>
</form>
</section></div>`,
  );
}

function forgotPage(sent: boolean): SafeHtml {
  return page(
    'Forgot password',
    html`<div class="login"><section><h1>Forgot your password?</h1>
${sent ? html`<div class="notice ok" role="status">If an account has that address, a link to set a new password is on its way. It works once, for 30 minutes.</div>` : ''}
<form method="post" action="${FORGOT_PASSWORD_PATH}">
  <label>Email <input type="email" name="email" autocomplete="username" required></label>
  <button type="submit">Send me a link</button>
</form><p><a href="${LOGIN_PATH}">Back to sign-in</a></p></section></div>`,
  );
}

function resetPage(token: string, error?: string): SafeHtml {
  return page(
    'Set a new password',
    html`<div class="login"><section><h1>Set a new password</h1>
${error ? html`<div class="notice error" role="alert">${error}</div>` : ''}
<form method="post" action="${RESET_PASSWORD_PATH}">
  <input type="hidden" name="token" value="${token}">
  <label>New password (12 characters or more) <input type="password" name="password" autocomplete="new-password" minlength="12" required></label>
  <button type="submit">Set password</button>
</form></section></div>`,
  );
}

const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', ...headers } });

export interface SessionHandlerDeps {
  pool: pg.Pool;
  sessions: WebSessions;
  mail: Mailer;
  publicOrigin: PublicOrigin;
  /** Ends what else the person is signed in to (the OAuth authorization server's session). */
  onSignedOut(userId: string): Promise<void>;
  /** Records a failure of work done after the answer (a failed sign-in's audit entry, a reset link and its mail). */
  onBackgroundError(error: unknown): void;
}

export function createSessionHandler(deps: SessionHandlerDeps) {
  const { pool, sessions } = deps;
  const cookieFor = (token: string, expiresAt: Date) =>
    sessionCookie(sessions.cookiePolicy, token, (expiresAt.getTime() - Date.now()) / 1000);

  async function login(request: Request, address: string): Promise<Response> {
    sessions.assertSameOrigin(request);
    const { fields, json } = await readForm(request);
    const email = textField(fields, 'email', { max: 320 }) ?? '';
    const password = typeof fields.password === 'string' ? fields.password : '';
    const next = returnPath(fields.next);
    // Whatever session the browser came with is ended: the one after sign-in is always new (no fixation).
    const previous = sessions.tokenOf(request);
    if (previous) await deleteSession(pool, previous);
    try {
      if (!email || !password) throw new ApiError('invalid_body', 'Send email and password.');
      const started = await signIn(
        pool,
        { email, password, address, workspaceSlug: textField(fields, 'workspace') },
        (work) => afterAnswer(work, deps.onBackgroundError),
      );
      const headers = { 'Set-Cookie': cookieFor(started.token, started.expiresAt) };
      if (!json) return redirect(next ?? SETTINGS_PATH, headers);
      const signedIn = { signedIn: true, expiresAt: started.expiresAt.toISOString() };
      return jsonResponse({ data: signedIn }, 200, { ...headers, 'Cache-Control': 'no-store' });
    } catch (error) {
      if (json || !(error instanceof ApiError)) throw error;
      return htmlResponse(loginPage({ error: error.message, email, next }), error.status, error.headers);
    }
  }

  async function logout(request: Request): Promise<Response> {
    sessions.assertSameOrigin(request);
    const { json } = await readForm(request);
    const session = await sessions.read(request);
    if (session) {
      await deleteSession(pool, sessions.tokenOf(request)!);
      await deps.onSignedOut(session.userId);
    }
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
          workspaces: await workspacesOf(pool, session),
          csrfToken: session.csrfToken,
          expiresAt: session.expiresAt.toISOString(),
        },
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  }

  async function chooseWorkspace(request: Request): Promise<Response> {
    const { session, fields, json } = await sessions.signedInChange(request);
    const slug = textField(fields, 'workspace', { required: true })!;
    if (!(await switchWorkspace(pool, session.id, session.userId, slug))) {
      throw new ApiError(
        'not_found',
        session.ssoWorkspaceId
          ? `You signed in with "${session.workspaceSlug}"'s single sign-on: sign in again to use another workspace.`
          : `You are not a member of a workspace "${slug}".`,
      );
    }
    await recordPersonAudit(pool, {
      userId: session.userId,
      action: 'session.workspace_switched',
      details: { from: session.workspaceSlug, to: slug },
    });
    return json ? jsonResponse({ data: { workspace: slug } }) : redirect(SETTINGS_PATH);
  }

  async function forgot(request: Request, address: string): Promise<Response> {
    sessions.assertSameOrigin(request);
    const { fields, json } = await readForm(request);
    const email = textField(fields, 'email', { required: true, max: 320 })!;
    // The same work for every address until the answer; the lookup, the link and the mail come after it.
    if (await reservePasswordReset(pool, { email, address })) {
      afterAnswer(async () => {
        const link = await issueResetLink(pool, { email, address });
        if (link) await deps.mail(resetMail(deps.publicOrigin.value, link));
      }, deps.onBackgroundError);
    }
    return json ? jsonResponse({ data: { sent: true } }, 202) : htmlResponse(forgotPage(true));
  }

  async function reset(request: Request): Promise<Response> {
    sessions.assertSameOrigin(request);
    const { fields, json } = await readForm(request);
    const token = textField(fields, 'token', { required: true, max: 100 })!;
    try {
      await resetPassword(pool, { token, password: typeof fields.password === 'string' ? fields.password : '' });
    } catch (error) {
      if (json || !(error instanceof ApiError)) throw error;
      return htmlResponse(resetPage(token, error.message), error.status);
    }
    return json ? jsonResponse({ data: { reset: true } }) : redirect(`${LOGIN_PATH}`);
  }

  async function change(request: Request): Promise<Response> {
    const { session, fields, json } = await sessions.signedInChange(request);
    const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
    await changePassword(pool, session, { current: text('currentPassword'), password: text('password') });
    return json ? jsonResponse({ data: { changed: true } }) : redirect(SETTINGS_PATH);
  }

  const routes: Record<string, Partial<Record<string, (request: Request, address: string) => Promise<Response>>>> = {
    [LOGIN_PATH]: {
      GET: async (request) =>
        htmlResponse(loginPage({ next: returnPath(new URL(request.url).searchParams.get('next')) })),
      POST: login,
    },
    [LOGOUT_PATH]: { POST: logout },
    [SESSION_PATH]: { GET: current },
    [SWITCH_WORKSPACE_PATH]: { POST: chooseWorkspace },
    [PASSWORD_PATH]: { POST: change },
    [FORGOT_PASSWORD_PATH]: { GET: async () => htmlResponse(forgotPage(false)), POST: forgot },
    [RESET_PASSWORD_PATH]: {
      GET: async (request) => htmlResponse(resetPage(new URL(request.url).searchParams.get('token') ?? '')),
      POST: reset,
    },
  };

  return async function handleSession(request: Request, path: string, address: string): Promise<Response | null> {
    const methods = routes[path];
    if (!methods) return null;
    const run = methods[request.method];
    if (!run)
      throw new ApiError('method_not_allowed', `${request.method} is not allowed here.`, {
        headers: { Allow: Object.keys(methods).join(', ') },
      });
    return run(request, address);
  };
}
