// The sign-in door's pages: signing in (password or single sign-on), asking for a reset link,
// setting a new password.
import { html, page, type SafeHtml } from '../http/html.js';
import { FORGOT_PASSWORD_PATH, LOGIN_PATH, RESET_PASSWORD_PATH } from '../sessions/index.js';

/** Where to go after signing in, carried through the form (written as the pages always wrote it). */
// prettier-ignore
const hiddenNext = (next: string | null | undefined) =>
  next ? html`<input type="hidden" name="next" value="${next}">` : '';

export function loginPage(options: { error?: string; email?: string; next?: string | null } = {}): SafeHtml {
  return page(
    'Sign in',
    html`<div class="login">
      <section>
        <h1>Sign in to Signalboard</h1>
        ${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
        <form method="post" action="${LOGIN_PATH}">
          ${hiddenNext(options.next)}
          <label
            >Email <input type="email" name="email" autocomplete="username" required value="${options.email ?? ''}"
          /></label>
          <label>Password <input type="password" name="password" autocomplete="current-password" required /></label>
          <button type="submit">Sign in</button>
        </form>
        <p><a href="${FORGOT_PASSWORD_PATH}">Forgot your password?</a></p>
      </section>
      <section>
        <h2>Single sign-on</h2>
        <form method="get" action="/app/sso/start">
          ${hiddenNext(options.next)}
          <label>Work email <input type="email" name="email" required /></label>
          <button type="submit" class="secondary">Continue with your company's sign-in</button>
        </form>
      </section>
    </div>`,
  );
}

const LINK_SENT =
  'If an account has that address, a link to set a new password is on its way. It works once, for 30 minutes.';

export function forgotPage(sent: boolean): SafeHtml {
  return page(
    'Forgot password',
    html`<div class="login">
      <section>
        <h1>Forgot your password?</h1>
        ${sent ? html`<div class="notice ok" role="status">${LINK_SENT}</div>` : ''}
        <form method="post" action="${FORGOT_PASSWORD_PATH}">
          <label>Email <input type="email" name="email" autocomplete="username" required /></label>
          <button type="submit">Send me a link</button>
        </form>
        <p><a href="${LOGIN_PATH}">Back to sign-in</a></p>
      </section>
    </div>`,
  );
}

export function resetPage(token: string, error?: string): SafeHtml {
  return page(
    'Set a new password',
    html`<div class="login">
      <section>
        <h1>Set a new password</h1>
        ${error ? html`<div class="notice error" role="alert">${error}</div>` : ''}
        <form method="post" action="${RESET_PASSWORD_PATH}">
          <input type="hidden" name="token" value="${token}" />
          <label
            >New password (12 characters or more)
            <input type="password" name="password" autocomplete="new-password" minlength="12" required
          /></label>
          <button type="submit">Set password</button>
        </form>
      </section>
    </div>`,
  );
}
