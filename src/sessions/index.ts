// The front door of sessions/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { cookie, cookieName, readCookie, sessionCookie } from './cookies.js';
export type { CookiePolicy } from './cookies.js';
export { startSession } from './login.js';
export { hashPassword, passwordProblem } from './passwords.js';
export { LOGIN_PATH } from './paths.js';
export { returnPath, signInLocation, signInRedirect } from './return-path.js';
export { deleteSession, workspacesOf } from './session-store.js';
export type { SessionView } from './session-store.js';
export { CSRF_FIELD } from './web-session.js';
export type { WebSessions } from './web-session.js';
// What the sign-in door (doors/sessions.ts) uses: its paths, sign-in, passwords, the session's workspace.
export { clearedSessionCookie } from './cookies.js';
export { signIn } from './login.js';
export { changePassword, issueResetLink, reservePasswordReset, resetMail, resetPassword } from './password-reset.js';
export {
  FORGOT_PASSWORD_PATH,
  LOGOUT_PATH,
  PASSWORD_PATH,
  RESET_PASSWORD_PATH,
  SESSION_PATH,
  SWITCH_WORKSPACE_PATH,
} from './paths.js';
export { switchWorkspace } from './session-store.js';
