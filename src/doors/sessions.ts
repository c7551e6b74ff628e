// /app/login, /app/logout and /app/session: password sign-in (form or JSON), sign-out, who am I
// (with the CSRF token for JSON clients), switching the active workspace; /app/password*: the
// forgotten-password link and changing a password.
import type pg from 'pg';
import { ApiError, refusalOf } from '../errors/index.js';
import { recordPersonAudit } from '../audit/index.js';
import { htmlResponse } from '../http/html.js';
import { forgotPage, loginPage, resetPage } from './session-pages.js';
import { routeByPath, type PathRoutes } from './path-routes.js';

import { readForm, textField } from '../http/forms.js';
import { jsonResponse, Response } from '../http/responses.js';
import type { Mailer } from '../mail/mailer.js';
import { afterAnswer } from '../http/after-answer.js';
import type { PublicOrigin } from '../http/public-origin.js';
import { SETTINGS_PATH } from '../settings/index.js';
import {
  changePassword,
  clearedSessionCookie,
  deleteSession,
  FORGOT_PASSWORD_PATH,
  issueResetLink,
  LOGIN_PATH,
  LOGOUT_PATH,
  PASSWORD_PATH,
  reservePasswordReset,
  RESET_PASSWORD_PATH,
  resetMail,
  resetPassword,
  returnPath,
  SESSION_PATH,
  sessionCookie,
  signIn,
  switchWorkspace,
  SWITCH_WORKSPACE_PATH,
  workspacesOf,
  type WebSessions,
} from '../sessions/index.js';

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

const cookieFor = (sessions: WebSessions, token: string, expiresAt: Date) =>
  sessionCookie(sessions.cookiePolicy, token, (expiresAt.getTime() - Date.now()) / 1000);

/** Who is signed in, where, and the CSRF token a JSON client sends with its changes. */
async function current({ pool, sessions }: SessionHandlerDeps, request: Request): Promise<Response> {
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

/** Signing in and out, and choosing the workspace to act in. */
function signInRoutes(deps: SessionHandlerDeps) {
  const { pool, sessions } = deps;

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
      const headers = { 'Set-Cookie': cookieFor(sessions, started.token, started.expiresAt) };
      if (!json) return redirect(next ?? SETTINGS_PATH, headers);
      const signedIn = { signedIn: true, expiresAt: started.expiresAt.toISOString() };
      return jsonResponse({ data: signedIn }, 200, { ...headers, 'Cache-Control': 'no-store' });
    } catch (error) {
      const refusal = json ? null : refusalOf(error);
      if (!refusal) throw error;
      return htmlResponse(loginPage({ error: refusal.message, email, next }), refusal.status, refusal.headers);
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

  return { login, logout, chooseWorkspace };
}

/** A forgotten password's link, setting a new password with it, and changing one while signed in. */
function passwordRoutes(deps: SessionHandlerDeps) {
  const { pool, sessions } = deps;

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
      const refusal = json ? null : refusalOf(error);
      if (!refusal) throw error;
      return htmlResponse(resetPage(token, refusal.message), refusal.status);
    }
    return json ? jsonResponse({ data: { reset: true } }) : redirect(`${LOGIN_PATH}`);
  }

  async function change(request: Request): Promise<Response> {
    const { session, fields, json } = await sessions.signedInChange(request);
    const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
    await changePassword(pool, session, { current: text('currentPassword'), password: text('password') });
    return json ? jsonResponse({ data: { changed: true } }) : redirect(SETTINGS_PATH);
  }

  return { forgot, reset, change };
}

export function createSessionHandler(deps: SessionHandlerDeps) {
  const { login, logout, chooseWorkspace } = signInRoutes(deps);
  const { forgot, reset, change } = passwordRoutes(deps);
  const routes: PathRoutes<string> = {
    [LOGIN_PATH]: {
      GET: async (request) =>
        htmlResponse(loginPage({ next: returnPath(new URL(request.url).searchParams.get('next')) })),
      POST: login,
    },
    [LOGOUT_PATH]: { POST: logout },
    [SESSION_PATH]: { GET: (request) => current(deps, request) },
    [SWITCH_WORKSPACE_PATH]: { POST: chooseWorkspace },
    [PASSWORD_PATH]: { POST: change },
    [FORGOT_PASSWORD_PATH]: { GET: async () => htmlResponse(forgotPage(false)), POST: forgot },
    [RESET_PASSWORD_PATH]: {
      GET: async (request) => htmlResponse(resetPage(new URL(request.url).searchParams.get('token') ?? '')),
      POST: reset,
    },
  };

  return routeByPath(routes);
}
