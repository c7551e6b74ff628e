// What a settings action is: one declaration serves its JSON twin (`/app/settings/…`) and the
// page's form post, over the same admin commands as the CLI and the MCP tools.
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { textField, type FormFields } from '../http/forms.js';
import { FORM_ID_FIELD } from './form-id.js';
import type { PublicOrigin } from '../http/public-origin.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { CSRF_FIELD, type SessionView, type WebSessions } from '../sessions/index.js';
import type { Actor, Notify } from '../workspaces/index.js';
import type { SafeHtml } from '../http/html.js';
import type { Notice } from './page.js';
import { readsAdminData } from './admin-data.js';

export interface SettingsDeps {
  config: Config;
  prisma: PrismaClient;
  pool: pg.Pool;
  box: SecretBox;
  sessions: WebSessions;
  notify: Notify;
  /** The service's one origin: redirect URIs and links shown on the page. */
  publicOrigin: PublicOrigin;
}

export interface SettingsCall {
  session: SessionView;
  actor: Actor;
  fields: FormFields;
  /** The path's parameters, in the order the path names them. */
  params: string[];
  request: Request;
}

export interface SettingsAction {
  method: 'GET' | 'POST';
  /** Below /app/settings; a segment `:id` or `:grantId` is a parameter, of the shape SETTINGS_PARAMS says. */
  path: string;
  /**
   * The JSON twin's data, and what the page shows after a form post; a read a person follows a link to also draws
   * its own page (`page`, under the settings pages' header), which a browser gets instead of the JSON.
   */
  run(call: SettingsCall): Promise<{ data: unknown; notice?: Notice; page?: (header: SafeHtml) => SafeHtml }>;
  /** A read that draws its own page (`run`'s `page`); a browser asking for any other read goes to the settings page. */
  drawsPage?: true;
}

/** An id in an action's path, a parameter of the path (`call.params`). */
export const ID = ':id';

/** What the ids in an action's path look like: a path with another shape there is no action's (404). */
export const SETTINGS_PARAMS = {
  id: /^[A-Za-z0-9_]{1,64}$/,
  // oidc-provider's grant ids are base64url.
  grantId: /^[A-Za-z0-9_-]{10,128}$/,
};

export const workspaceOf = (call: SettingsCall) => call.session.workspaceId;

const MEMBER_REFUSALS = {
  GET: 'Only owners and admins of the workspace may read this.',
  POST: 'Only owners and admins of the workspace may change this.',
};

/** A member is refused the workspace's admin data and every change, as /graphql refuses them. */
export function refuseMembers(session: SessionView, method: SettingsAction['method']) {
  if (!readsAdminData(session)) throw new ApiError('forbidden', MEMBER_REFUSALS[method]);
}

/** The workspace whose admin data a read action lists. */
export function adminWorkspaceOf(call: SettingsCall): string {
  refuseMembers(call.session, 'GET');
  return workspaceOf(call);
}

const FORM_ID = /^[A-Za-z0-9]{16,64}$/;

/** Refuses a field the action does not read: a misspelt field must not fall back to a default (every event type). */
export function onlyFields(call: SettingsCall, names: readonly string[]) {
  const known = new Set([...names, CSRF_FIELD]);
  const unknown = Object.keys(call.fields).find((name) => !known.has(name));
  if (unknown !== undefined)
    throw new ApiError('invalid_parameter', `${unknown} is not a field here; it takes ${names.join(', ')}.`, {
      param: unknown,
    });
}

/**
 * A create's form: only the fields its command's input shape names, and its one-time id if sent (a script may send
 * its own, to make a retry safe).
 */
export function createForm(call: SettingsCall, shape: object): { formId?: string } {
  onlyFields(call, [...Object.keys(shape), FORM_ID_FIELD]);
  const formId = textField(call.fields, FORM_ID_FIELD);
  if (formId === null) return {};
  if (!FORM_ID.test(formId))
    throw new ApiError('invalid_parameter', `${FORM_ID_FIELD} must be 16 to 64 letters and digits.`, {
      param: FORM_ID_FIELD,
    });
  return { formId };
}

/** A form's blank field is no value; anything else goes to the command's input parse as it came. */
export const blankAsAbsent = (value: unknown) => (typeof value === 'string' && !value.trim() ? undefined : value);
