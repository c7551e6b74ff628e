// Every settings action, declared once: its JSON twin (`/app/settings/…`) and the page's form
// post run the same declaration, over the same admin commands as the CLI and the MCP tools.
import type pg from 'pg';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { ApiError } from '../errors/index.js';
import { booleanField, listField, textField, type FormFields } from '../http/forms.js';
import { listAuditLog } from '../audit/index.js';
import { createApiKey, listApiKeys, parseScopes, revokeApiKey } from '../auth/index.js';
import { mcpWriteActions, setMcpWriteActions } from '../mcp/index.js';
import { listGrants, revokeGrant } from '../mcp/index.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { SessionView } from '../sessions/index.js';
import type { WebSessions } from '../sessions/index.js';
import { getConnection, identityProviderPolicy, requiresSso, setConnection, setRequireSso } from '../sso/index.js';
import { claimDomain, listDomains, txtResolver, verifyDomain } from '../sso/index.js';
import { approveLink, SSO_CALLBACK_PATH } from '../sso/index.js';
import type { PublicOrigin } from '../http/public-origin.js';
import { createEndpoint, listAttempts, listEndpoints, parseEventTypes, replayEvent, replayFailed, revealSecret, rotateSecret, setEnabled, webhookDepsOf, type WebhookDeps } from '../webhooks/index.js';
import type { Actor } from '../workspaces/index.js';
import type { Notify } from '../workspaces/index.js';
import type { Notice } from './page.js';
import { addPrompts, listPrompts, setProjectDomains, setPromptsArchived, updatePrompts, parseCompetitorDomains } from '../ai-visibility/index.js';

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
  params: string[];
  request: Request;
}

export interface SettingsAction {
  method: 'GET' | 'POST';
  path: RegExp;
  /** The JSON twin's data, and what the page shows after a form post. */
  run(call: SettingsCall): Promise<{ data: unknown; notice?: Notice }>;
}

const ID = '([A-Za-z0-9_]{1,64})';
// oidc-provider's grant ids are base64url.
const GRANT_ID = '([A-Za-z0-9_-]{10,128})';

export const settingsWebhookDeps = (deps: SettingsDeps): WebhookDeps => webhookDepsOf(deps.config, { prisma: deps.prisma, pool: deps.pool, box: deps.box });

/** One entry per line of a text area, or the items of a JSON list (prompt texts may hold commas). */
function linesField(fields: FormFields, name: string): string[] {
  const value = fields[name];
  const lines = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/\r?\n/) : [];
  return lines.map((line) => line.trim()).filter(Boolean);
}

export function settingsActions(deps: SettingsDeps): SettingsAction[] {
  const { prisma, pool, config } = deps;
  const webhooks = settingsWebhookDeps(deps);
  const resolver = txtResolver(config.DNS_RESOLVER);
  const workspaceId = (call: SettingsCall) => call.session.workspaceId;

  // One declaration per settings action: the JSON twin and the page's form post share it.
  return [
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
      run: async (call: SettingsCall) => {
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
    {
      method: 'GET',
      path: new RegExp(`^/projects/${ID}/prompts$`),
      run: async (call) => ({ data: await listPrompts(prisma, { projectId: call.params[0]!, actor: call.actor, includeArchived: new URL(call.request.url).searchParams.get('includeArchived') === 'true' }) }),
    },
    {
      method: 'POST',
      path: new RegExp(`^/projects/${ID}/prompts$`),
      run: async (call) => {
        const topic = textField(call.fields, 'topic', { max: 100 });
        const tags = listField(call.fields, 'tags') ?? undefined;
        const texts = linesField(call.fields, 'texts');
        if (!texts.length) throw new ApiError('invalid_parameter', 'texts is required: one prompt per line (or a JSON list).', { param: 'texts' });
        const result = await addPrompts(prisma, { projectId: call.params[0]!, prompts: texts.map((text) => ({ text, topic, tags })), actor: call.actor });
        return { data: result, notice: { kind: 'ok', title: `${result.added.length} prompt(s) added${result.existing.length ? `; ${result.existing.length} already tracked` : ''}.` } };
      },
    },
    ...(['archive', 'restore'] as const).map((verb) => ({
      method: 'POST' as const,
      path: new RegExp(`^/prompts/${verb}$`),
      run: async (call: SettingsCall) => {
        const prompts = await setPromptsArchived(prisma, { promptIds: listField(call.fields, 'promptIds') ?? [], archived: verb === 'archive', actor: call.actor });
        return { data: prompts, notice: { kind: 'ok' as const, title: `${prompts.length} prompt(s) ${verb}d.` } };
      },
    })),
    {
      method: 'POST',
      path: /^\/prompts\/update$/,
      run: async (call) => {
        const topic = call.fields.topic === undefined ? undefined : textField(call.fields, 'topic', { max: 100 });
        const prompts = await updatePrompts(prisma, { promptIds: listField(call.fields, 'promptIds') ?? [], topic, tags: call.fields.tags === undefined ? undefined : (listField(call.fields, 'tags') ?? []), actor: call.actor });
        return { data: prompts, notice: { kind: 'ok', title: `${prompts.length} prompt(s) updated.` } };
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^/projects/${ID}/domains$`),
      run: async (call) => {
        const competitorDomains = call.fields.competitors === undefined ? undefined : linesField(call.fields, 'competitors').map(parseCompetitorDomains);
        const result = await setProjectDomains(prisma, { projectId: call.params[0]!, domains: listField(call.fields, 'domains') ?? [], competitorDomains, actor: call.actor });
        return { data: result, notice: { kind: 'ok', title: `Domains of ${result.projectId} saved.` } };
      },
    },
  ];
}
