// /app/settings: the page (server-rendered HTML, forms with CSRF tokens) and its JSON twins
// under /app/settings/…, both calling the same domain code as the CLI. The workspace's admin data
// and every change are for owners and admins (members get 403 and a page of their own account,
// admin-data.ts); changes come from this site only (Origin), with the session's CSRF token.
import { ApiError, refusalOf } from '../errors/index.js';
import { routeByPath, type PathParams, type PathRoutes } from '../doors/index.js';
import { readForm, type FormFields } from '../http/forms.js';
import { htmlResponse, wantsHtml } from '../http/html.js';
import { jsonResponse } from '../http/responses.js';
import { listAuditLog } from '../audit/index.js';
import { listApiKeys } from '../auth/index.js';
import { mcpWriteActions } from '../mcp/index.js';
import { listGrants } from '../mcp/index.js';
import { signInRedirect } from '../sessions/index.js';
import { SETTINGS_PATH } from './paths.js';
import { workspacesOf, type SessionView } from '../sessions/index.js';
import { getConnection, requiresSso } from '../sso/index.js';
import { listDomains } from '../sso/index.js';
import { SSO_CALLBACK_PATH } from '../sso/index.js';
import { MCP_PATH } from '../mcp/index.js';
import { listEndpoints } from '../webhooks/index.js';
import { planHas } from '../workspaces/index.js';
import { viewLinks } from '../views/index.js';
import { workspaceScopes } from '../db/workspace-scope.js';
import { settingsPage, type Notice, type SettingsView } from './page.js';
import { settingsActions } from './actions.js';
import { settingsWebhookDeps } from './webhook-actions.js';
import { refuseMembers, SETTINGS_PARAMS, type SettingsAction, type SettingsCall, type SettingsDeps } from './action.js';
import { readsAdminData } from './admin-data.js';
import { settingsHeader, type PageChrome } from './page-header.js';

export type { SettingsDeps } from './action.js';

type AdminData = Pick<
  SettingsView,
  'keys' | 'endpoints' | 'connection' | 'domains' | 'writeActions' | 'audit' | 'connectedApps' | 'requireSso'
>;

/** What a member's page holds of the admin data: nothing (as /graphql and MCP refuse it to them). */
const NO_ADMIN_DATA: AdminData = {
  keys: [],
  endpoints: [],
  connection: null,
  domains: [],
  writeActions: false,
  audit: [],
  connectedApps: [],
  requireSso: false,
};

/** The workspace's admin data the page lists, read at once (owners and admins only). */
function adminDataReader(deps: SettingsDeps) {
  const { prisma, pool } = deps;
  const webhooks = settingsWebhookDeps(deps);
  return async (session: SessionView): Promise<AdminData> => {
    const id = session.workspaceId;
    const [keys, endpoints, connection, domains, writeActions, audit, connectedApps, requireSso] = await Promise.all([
      listApiKeys(prisma, id),
      planHas(session.plan, 'webhooks') ? listEndpoints(webhooks, id) : Promise.resolve([]),
      planHas(session.plan, 'sso') ? getConnection(prisma, id) : Promise.resolve(null),
      planHas(session.plan, 'sso') ? listDomains(prisma, id) : Promise.resolve([]),
      mcpWriteActions(prisma, id),
      listAuditLog(pool, id, 50),
      listGrants(pool, id),
      requiresSso(prisma, id),
    ]);
    return { keys, endpoints, connection, domains, writeActions, audit, connectedApps, requireSso };
  };
}

/** The settings page for a session: everything it lists read at once, then drawn (page.ts). */
function pageRenderer(deps: SettingsDeps, chromeOf: (session: SessionView) => Promise<PageChrome>) {
  const { prisma } = deps;
  const adminData = adminDataReader(deps);
  return async function renderPage(
    session: SessionView,
    request: Request,
    notice: Notice | null,
    status = 200,
    submitted: SettingsView['submitted'] = null,
  ): Promise<Response> {
    const id = session.workspaceId;
    const canUseSso = planHas(session.plan, 'sso');
    const admin = readsAdminData(session);
    const [data, memberSeesSso, chrome] = await Promise.all([
      admin ? adminData(session) : NO_ADMIN_DATA,
      // A member learns only whether there is a provider to link their account to.
      !admin && canUseSso ? getConnection(prisma, id).then(Boolean) : false,
      chromeOf(session),
    ]);
    return htmlResponse(
      settingsPage({
        ...chrome,
        notice,
        submitted,
        ...data,
        canUseWebhooks: planHas(session.plan, 'webhooks'),
        canUseSso,
        canLinkSso: (memberSeesSso || data.connection !== null) && !session.ssoWorkspaceId,
        redirectUri: `${deps.publicOrigin.value}${SSO_CALLBACK_PATH}`,
        mcpUrl: `${deps.publicOrigin.value}${MCP_PATH}`,
      }),
      status,
    );
  };
}

const SECTIONS = new Set(['api-keys', 'webhooks', 'sso', 'mcp', 'audit-log']);

/**
 * A browser asking for a JSON twin (a bookmark, or the address a form post left in the address bar) is sent to
 * the part of the settings page that shows the same thing.
 */
function toSection(path: string) {
  const section = path.slice(SETTINGS_PATH.length).split('/')[1] ?? '';
  const location = SECTIONS.has(section) ? `${SETTINGS_PATH}#${section}` : SETTINGS_PATH;
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

export function createSettingsHandler(deps: SettingsDeps) {
  const scopeOf = workspaceScopes(deps.pool);
  const chromeOf = async (session: SessionView): Promise<PageChrome> => {
    const [workspaces, views] = await Promise.all([
      workspacesOf(deps.pool, session),
      viewLinks(scopeOf(session.workspaceId)),
    ]);
    return { session, workspaces, views };
  };
  const renderPage = pageRenderer(deps, chromeOf);

  /** The person signed in; null when there is none and a browser's GET goes to the sign-in page (else a 401). */
  async function signedIn(request: Request): Promise<SessionView | null> {
    const session = await deps.sessions.read(request);
    if (session || (wantsHtml(request) && request.method === 'GET')) return session;
    throw new ApiError('unauthenticated', 'Sign in first (POST /app/login).');
  }

  async function perform(action: SettingsAction, request: Request, path: string, params: PathParams) {
    const session = await signedIn(request);
    if (!session) return signInRedirect(request);
    const html = wantsHtml(request);
    if (html && action.method === 'GET' && !action.drawsPage) return toSection(path);
    let fields: FormFields = {};
    if (action.method === 'POST') {
      deps.sessions.assertSameOrigin(request);
      fields = (await readForm(request)).fields;
      deps.sessions.assertCsrf(session, request, fields);
    }
    const call: SettingsCall = {
      session,
      actor: { email: session.email, workspaceId: session.workspaceId },
      fields,
      params: Object.values(params),
      request,
    };
    try {
      // Every action is the admins': a member is refused before any id or field is looked at, so that nothing
      // they send learns whether a thing exists (the command would check their role only after finding it).
      refuseMembers(session, action.method);
      const result = await action.run(call);
      if (html && result.page) return htmlResponse(result.page(settingsHeader(await chromeOf(session))));
      return html && action.method === 'POST'
        ? renderPage(session, request, result.notice ?? null)
        : jsonResponse({ data: result.data }, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      // A field the command's own rule refuses is a parameter, like one its input parse refuses (and as MCP says).
      const refusal = refusalOf(error, 'invalid_parameter');
      if (!refusal) throw error;
      // A refusal is shown on the page the form was on; anything else is the boundary's (doors/boundary.ts).
      if (!html || action.method !== 'POST') throw refusal;
      return renderPage(session, request, { kind: 'error', title: refusal.message }, refusal.status, {
        action: path.slice(SETTINGS_PATH.length),
        fields,
      });
    }
  }

  // The page and every action in one path table (doors/path-routes.ts): what no action takes is 404 or 405 + Allow.
  const routes: PathRoutes<string> = {
    [SETTINGS_PATH]: {
      GET: async (request) => {
        const session = await signedIn(request);
        return session ? renderPage(session, request, null) : signInRedirect(request);
      },
    },
  };
  for (const action of settingsActions(deps))
    (routes[`${SETTINGS_PATH}${action.path}`] ??= {})[action.method] = (request, path, params) =>
      perform(action, request, path, params);
  const route = routeByPath(routes, SETTINGS_PARAMS);
  return (request: Request, path: string) => route(request, path, path);
}
