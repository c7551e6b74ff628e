// /app/settings: the page (server-rendered HTML, forms with CSRF tokens) and its JSON twins
// under /app/settings/…, both calling the same domain code as the CLI. Everyone signed in may
// read; changes are for owners and admins (members get 403), from this site only (Origin),
// with the session's CSRF token.
import type pg from 'pg';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { ApiError, UsageError, fromUsageError } from '../errors/index.js';
import { booleanField, listField, readForm, textField, type FormFields } from '../http/forms.js';
import { htmlResponse, wantsHtml } from '../http/html.js';
import { jsonResponse, Response } from '../http/responses.js';
import { listAuditLog } from '../audit/audit-log.js';
import { createApiKey, listApiKeys, parseScopes, revokeApiKey } from '../auth/key-management.js';
import { mcpWriteActions, setMcpWriteActions } from '../mcp/write-actions.js';
import { listGrants, revokeGrant } from '../mcp/grants.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { LOGIN_PATH } from '../sessions/paths.js';
import { SETTINGS_PATH } from './paths.js';
import { workspacesOf, type SessionView } from '../sessions/session-store.js';
import type { WebSessions } from '../sessions/web-session.js';
import { getConnection, identityProviderPolicy, requiresSso, setConnection, setRequireSso, SSO_PLANS } from '../sso/connections.js';
import { claimDomain, listDomains, txtResolver, verifyDomain } from '../sso/domains.js';
import { approveLink, SSO_CALLBACK_PATH } from '../sso/oidc.js';
import type { PublicOrigin } from '../http/public-origin.js';
import { MCP_PATH } from '../mcp/connector.js';
import { createEndpoint, listAttempts, listEndpoints, parseEventTypes, replayEvent, replayFailed, revealSecret, rotateSecret, setEnabled, WEBHOOK_PLANS, type WebhookDeps } from '../webhooks/endpoints.js';
import type { Actor } from '../workspaces/actor.js';
import type { Notify } from '../workspaces/service.js';
import { settingsPage, type Notice } from './page.js';

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

interface Call {
  session: SessionView;
  actor: Actor;
  fields: FormFields;
  params: string[];
  request: Request;
}

interface Action {
  method: 'GET' | 'POST';
  path: RegExp;
  /** The JSON twin's data, and what the page shows after a form post. */
  run(call: Call): Promise<{ data: unknown; notice?: Notice }>;
}

const ID = '([A-Za-z0-9_]{1,64})';
// oidc-provider's grant ids are base64url.
const GRANT_ID = '([A-Za-z0-9_-]{10,128})';

export function createSettingsHandler(deps: SettingsDeps) {
  const { prisma, pool, config } = deps;
  const webhooks: WebhookDeps = { prisma, pool, box: deps.box, policy: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS } };
  const resolver = txtResolver(config.DNS_RESOLVER);
  const workspaceId = (call: Call) => call.session.workspaceId;

  // One declaration per settings action: the JSON twin and the page's form post share it.
  const actions: Action[] = [
    { method: 'GET', path: /^\/api-keys$/, run: async (call) => ({ data: await listApiKeys(prisma, workspaceId(call)) }) },
    {
      method: 'POST',
      path: /^\/api-keys$/,
      run: async (call) => {
        const expires = textField(call.fields, 'expiresAt');
        const expiresAt = expires ? new Date(expires.length === 10 ? `${expires}T23:59:59Z` : expires) : null;
        if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new ApiError('invalid_parameter', 'expiresAt must be an ISO 8601 date or date-time.', { param: 'expiresAt' });
        const scopes = listField(call.fields, 'scopes');
        const key = await createApiKey(prisma, { workspaceId: workspaceId(call), name: textField(call.fields, 'name', { required: true, max: 100 })!, scopes: parseScopes(scopes?.join(',')), expiresAt, actor: call.actor });
        return { data: key, notice: { kind: 'secret', title: `API key "${key.name}" created. Copy the secret now; it is not shown again.`, secret: key.secret } };
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^/api-keys/${ID}/revoke$`),
      run: async (call) => {
        const revoked = await revokeApiKey(prisma, deps.notify, call.params[0]!, call.actor);
        return { data: revoked, notice: { kind: 'ok', title: `API key ${revoked.id} revoked; it stops working at once.` } };
      },
    },
    { method: 'GET', path: /^\/webhooks$/, run: async (call) => ({ data: await listEndpoints(webhooks, workspaceId(call)) }) },
    {
      method: 'POST',
      path: /^\/webhooks$/,
      run: async (call) => {
        const endpoint = await createEndpoint(webhooks, {
          workspaceId: workspaceId(call),
          url: textField(call.fields, 'url', { required: true })!,
          eventTypes: parseEventTypes(listField(call.fields, 'eventTypes')?.join(',')),
          description: textField(call.fields, 'description', { max: 500 }),
          actor: call.actor,
        });
        return { data: endpoint, notice: { kind: 'secret', title: `Webhook endpoint ${endpoint.url} created. Its signing secret:`, secret: endpoint.secret } };
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^/webhooks/${ID}/secret$`),
      run: async (call) => {
        const revealed = await revealSecret(webhooks, call.params[0]!, call.actor);
        return { data: revealed, notice: { kind: 'secret', title: `Signing secret of ${revealed.id}:`, secret: revealed.secret } };
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^/webhooks/${ID}/rotate-secret$`),
      run: async (call) => {
        const rotated = await rotateSecret(webhooks, call.params[0]!, call.actor);
        return { data: rotated, notice: { kind: 'secret', title: `New secret of ${rotated.id}; the previous one also signs until ${rotated.previousSecretExpiresAt}.`, secret: rotated.secret } };
      },
    },
    ...(['enable', 'disable'] as const).map((verb) => ({
      method: 'POST' as const,
      path: new RegExp(`^/webhooks/${ID}/${verb}$`),
      run: async (call: Call) => {
        const endpoint = await setEnabled(webhooks, call.params[0]!, verb === 'enable', call.actor);
        return { data: endpoint, notice: { kind: 'ok' as const, title: `${endpoint.url} ${endpoint.enabled ? 'enabled' : 'disabled'}.` } };
      },
    })),
    { method: 'GET', path: new RegExp(`^/webhooks/${ID}/attempts$`), run: async (call) => ({ data: await listAttempts(webhooks, call.params[0]!, call.actor) }) },
    {
      method: 'POST',
      path: /^\/webhooks\/replay$/,
      run: async (call) => {
        const replayed = await replayEvent(webhooks, textField(call.fields, 'eventId', { required: true })!, textField(call.fields, 'endpointId'), call.actor);
        return { data: replayed, notice: { kind: 'ok', title: `Event ${replayed.eventId} is sent again to ${replayed.endpoints.length} endpoint(s).` } };
      },
    },
    {
      method: 'POST',
      path: /^\/webhooks\/replay-failed$/,
      run: async (call) => {
        const since = textField(call.fields, 'since', { required: true })!;
        if (!/^\d{4}-\d{2}-\d{2}/.test(since)) throw new ApiError('invalid_parameter', 'since must be an ISO 8601 date or time.', { param: 'since' });
        const result = await replayFailed(webhooks, workspaceId(call), new Date(since), call.actor);
        return { data: result, notice: { kind: 'ok', title: `${result.replayed} failed deliveries are sent again.` } };
      },
    },
    {
      method: 'GET',
      path: /^\/sso$/,
      run: async (call) => ({ data: { connection: await getConnection(prisma, workspaceId(call)), redirectUri: `${deps.publicOrigin.value}${SSO_CALLBACK_PATH}`, requireSso: await requiresSso(prisma, workspaceId(call)) } }),
    },
    {
      method: 'POST',
      path: /^\/sso$/,
      run: async (call) => {
        const connection = await setConnection(
          { prisma, box: deps.box, issuerPolicy: identityProviderPolicy(config) },
          {
            workspaceId: workspaceId(call),
            issuer: textField(call.fields, 'issuer', { required: true })!,
            clientId: textField(call.fields, 'clientId', { required: true, max: 500 })!,
            clientSecret: textField(call.fields, 'clientSecret', { max: 2000 }),
            actor: call.actor,
          },
        );
        return { data: connection, notice: { kind: 'ok', title: `Identity provider ${connection.issuer} saved.` } };
      },
    },
    {
      method: 'POST',
      path: /^\/sso\/require$/,
      run: async (call) => {
        const result = await setRequireSso(prisma, { workspaceId: workspaceId(call), enabled: booleanField(call.fields, 'requireSso'), actor: call.actor });
        return { data: result, notice: { kind: 'ok', title: `Single sign-on is ${result.requireSso ? 'required' : 'optional'} for members in verified domains.` } };
      },
    },
    {
      method: 'POST',
      path: /^\/sso\/link-approvals$/,
      run: async (call) => {
        const approval = await approveLink({ prisma }, { workspaceId: workspaceId(call), email: textField(call.fields, 'email', { required: true, max: 320 })!, actor: call.actor });
        return { data: approval, notice: { kind: 'ok', title: `${approval.email}'s next company sign-in links to their account.` } };
      },
    },
    { method: 'GET', path: /^\/sso\/domains$/, run: async (call) => ({ data: await listDomains(prisma, workspaceId(call)) }) },
    {
      method: 'POST',
      path: /^\/sso\/domains$/,
      run: async (call) => {
        const domain = await claimDomain(prisma, { workspaceId: workspaceId(call), domain: textField(call.fields, 'domain', { required: true, max: 253 })!, actor: call.actor });
        return { data: domain, notice: { kind: 'ok', title: `Publish TXT ${domain.txtName} = "${domain.txtValue}", then verify.` } };
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^/sso/domains/${ID}/verify$`),
      run: async (call) => {
        const domain = await verifyDomain({ prisma, resolver }, { domainId: call.params[0]!, actor: call.actor });
        return { data: domain, notice: { kind: 'ok', title: `${domain.domain} is verified.` } };
      },
    },
    { method: 'GET', path: /^\/mcp$/, run: async (call) => ({ data: { writeActions: await mcpWriteActions(prisma, workspaceId(call)), connectedApps: await listGrants(pool, workspaceId(call)) } }) },
    {
      method: 'POST',
      path: new RegExp(`^/mcp/grants/${GRANT_ID}/revoke$`),
      run: async (call) => {
        const revoked = await revokeGrant({ pool, prisma, notify: deps.notify }, { workspaceId: workspaceId(call), grantId: call.params[0]!, actor: call.actor });
        return { data: revoked, notice: { kind: 'ok', title: 'The app is disconnected; its tokens stop working at once.' } };
      },
    },
    {
      method: 'POST',
      path: /^\/mcp$/,
      run: async (call) => {
        const result = await setMcpWriteActions(prisma, deps.notify, { workspaceId: workspaceId(call), enabled: booleanField(call.fields, 'writeActions'), actor: call.actor });
        return { data: result, notice: { kind: 'ok', title: `MCP write actions are ${result.writeActions ? 'on' : 'off'}.` } };
      },
    },
    { method: 'GET', path: /^\/audit-log$/, run: async (call) => ({ data: await listAuditLog(pool, workspaceId(call)) }) },
  ];

  async function renderPage(session: SessionView, request: Request, notice: Notice | null, status = 200): Promise<Response> {
    const id = session.workspaceId;
    const canUseWebhooks = WEBHOOK_PLANS.includes(session.plan);
    const canUseSso = SSO_PLANS.includes(session.plan);
    const [keys, endpoints, connection, domains, writeActions, audit, workspaces, connectedApps, requireSso] = await Promise.all([
      listApiKeys(prisma, id),
      canUseWebhooks ? listEndpoints(webhooks, id) : Promise.resolve([]),
      canUseSso ? getConnection(prisma, id) : Promise.resolve(null),
      canUseSso ? listDomains(prisma, id) : Promise.resolve([]),
      mcpWriteActions(prisma, id),
      listAuditLog(pool, id, 50),
      workspacesOf(pool, session),
      listGrants(pool, id),
      requiresSso(prisma, id),
    ]);
    return htmlResponse(
      settingsPage({ session, notice, keys, endpoints, connection, domains, writeActions, audit, workspaces, connectedApps, canUseWebhooks, canUseSso, requireSso, redirectUri: `${deps.publicOrigin.value}${SSO_CALLBACK_PATH}`, mcpUrl: `${deps.publicOrigin.value}${MCP_PATH}` }),
      status,
    );
  }

  return async function handleSettings(request: Request, path: string): Promise<Response | null> {
    if (path !== SETTINGS_PATH && !path.startsWith(`${SETTINGS_PATH}/`)) return null;
    const html = wantsHtml(request);
    const session = await deps.sessions.read(request);
    if (!session) {
      if (html && request.method === 'GET') return new Response(null, { status: 303, headers: { Location: LOGIN_PATH, 'Cache-Control': 'no-store' } });
      throw new ApiError('unauthenticated', 'Sign in first (POST /app/login).');
    }
    if (path === SETTINGS_PATH) {
      if (request.method !== 'GET') throw new ApiError('method_not_allowed', 'Use GET.');
      return renderPage(session, request, null);
    }
    const rest = path.slice(SETTINGS_PATH.length);
    const matches = actions.filter((candidate) => candidate.path.test(rest));
    if (!matches.length) throw new ApiError('not_found', 'No such settings path.');
    const action = matches.find((candidate) => candidate.method === request.method);
    if (!action) throw new ApiError('method_not_allowed', `Use ${matches.map((candidate) => candidate.method).join(' or ')}.`);
    let fields: FormFields = {};
    if (action.method === 'POST') {
      deps.sessions.assertSameOrigin(request);
      fields = (await readForm(request)).fields;
      deps.sessions.assertCsrf(session, request, fields);
    }
    const call: Call = { session, actor: { email: session.email, workspaceId: session.workspaceId }, fields, params: action.path.exec(rest)!.slice(1), request };
    try {
      const result = await action.run(call);
      return html && action.method === 'POST' ? renderPage(session, request, result.notice ?? null) : jsonResponse({ data: result.data }, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      const apiError = error instanceof UsageError ? fromUsageError(error) : error;
      if (html && action.method === 'POST' && apiError instanceof ApiError) return renderPage(session, request, { kind: 'error', title: apiError.message }, apiError.status);
      throw apiError;
    }
  };
}
