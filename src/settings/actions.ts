// Every settings action, declared once per feature (api keys and MCP here; webhooks, single
// sign-on and prompts beside this file); action.ts says what a declaration is.
import { booleanField, listField } from '../http/forms.js';
import { listAuditLog } from '../audit/index.js';
import { CREATE_KEY_INPUT, createApiKey, keyToCreate, listApiKeys, revokeApiKey } from '../auth/index.js';
import { commandInput } from '../errors/command-input.js';
import { listGrants, mcpWriteActions, revokeGrant, setMcpWriteActions } from '../mcp/index.js';
import {
  adminWorkspaceOf,
  blankAsAbsent,
  createForm,
  ID,
  workspaceOf,
  type SettingsAction,
  type SettingsDeps,
} from './action.js';
import { promptActions } from './prompt-actions.js';
import { ssoActions } from './sso-actions.js';
import { webhookActions } from './webhook-actions.js';

// A grant's id in a path (its shape: SETTINGS_PARAMS).
const GRANT_ID = ':grantId';

export function settingsActions(deps: SettingsDeps): SettingsAction[] {
  return [
    ...apiKeyActions(deps),
    ...webhookActions(deps),
    ...ssoActions(deps),
    ...mcpActions(deps),
    ...promptActions(deps),
  ];
}

function apiKeyActions(deps: SettingsDeps): SettingsAction[] {
  const { prisma } = deps;
  return [
    {
      method: 'GET',
      path: '/api-keys',
      run: async (call) => ({ data: await listApiKeys(prisma, adminWorkspaceOf(call)) }),
    },
    {
      method: 'POST',
      path: '/api-keys',
      run: async (call) => {
        const form = createForm(call, CREATE_KEY_INPUT);
        const input = commandInput(CREATE_KEY_INPUT, {
          name: call.fields.name,
          scopes: listField(call.fields, 'scopes') ?? undefined,
          expiresAt: blankAsAbsent(call.fields.expiresAt),
        });
        const key = await createApiKey(prisma, {
          ...keyToCreate(input),
          workspaceId: workspaceOf(call),
          actor: call.actor,
          ...form,
        });
        return {
          data: key,
          notice: {
            kind: 'secret',
            title: `API key "${key.name}" created. Copy the secret now; it is not shown again.`,
            secret: key.secret,
          },
        };
      },
    },
    {
      method: 'POST',
      path: `/api-keys/${ID}/revoke`,
      run: async (call) => {
        const revoked = await revokeApiKey(prisma, deps.notify, call.params[0]!, call.actor);
        return {
          data: revoked,
          notice: { kind: 'ok', title: `API key ${revoked.id} revoked; it stops working at once.` },
        };
      },
    },
  ];
}

function mcpActions(deps: SettingsDeps): SettingsAction[] {
  const { prisma, pool } = deps;
  return [
    {
      method: 'GET',
      path: '/mcp',
      run: async (call) => ({
        data: {
          writeActions: await mcpWriteActions(prisma, adminWorkspaceOf(call)),
          connectedApps: await listGrants(pool, workspaceOf(call)),
        },
      }),
    },
    {
      method: 'POST',
      path: `/mcp/grants/${GRANT_ID}/revoke`,
      run: async (call) => {
        const revoked = await revokeGrant(
          { pool, prisma, notify: deps.notify },
          { workspaceId: workspaceOf(call), grantId: call.params[0]!, actor: call.actor },
        );
        return {
          data: revoked,
          notice: { kind: 'ok', title: 'The app is disconnected; its tokens stop working at once.' },
        };
      },
    },
    {
      method: 'POST',
      path: '/mcp',
      run: async (call) => {
        const result = await setMcpWriteActions(prisma, deps.notify, {
          workspaceId: workspaceOf(call),
          enabled: booleanField(call.fields, 'writeActions'),
          actor: call.actor,
        });
        return {
          data: result,
          notice: { kind: 'ok', title: `MCP write actions are ${result.writeActions ? 'on' : 'off'}.` },
        };
      },
    },
    {
      method: 'GET',
      path: '/audit-log',
      run: async (call) => ({ data: await listAuditLog(pool, adminWorkspaceOf(call)) }),
    },
  ];
}
