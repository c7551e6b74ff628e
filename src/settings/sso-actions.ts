// Settings actions for single sign-on: the identity provider, its requirement, link approvals, domains.
import { booleanField, textField } from '../http/forms.js';
import {
  approveLink,
  claimDomain,
  getConnection,
  identityProviderPolicy,
  listDomains,
  requiresSso,
  setConnection,
  setRequireSso,
  SSO_CALLBACK_PATH,
  txtResolver,
  verifyDomain,
} from '../sso/index.js';
import { adminWorkspaceOf, ID, workspaceOf, type SettingsAction, type SettingsDeps } from './action.js';

export function ssoActions(deps: SettingsDeps): SettingsAction[] {
  return [...connectionActions(deps), ...domainActions(deps)];
}

/** The identity provider, whether members must use it, and approving a link to an existing account. */
function connectionActions(deps: SettingsDeps): SettingsAction[] {
  const { prisma, config } = deps;
  return [
    {
      method: 'GET',
      path: '/sso',
      run: async (call) => ({
        data: {
          connection: await getConnection(prisma, adminWorkspaceOf(call)),
          redirectUri: `${deps.publicOrigin.value}${SSO_CALLBACK_PATH}`,
          requireSso: await requiresSso(prisma, workspaceOf(call)),
        },
      }),
    },
    {
      method: 'POST',
      path: '/sso',
      run: async (call) => {
        const connection = await setConnection(
          { prisma, box: deps.box, issuerPolicy: identityProviderPolicy(config) },
          {
            workspaceId: workspaceOf(call),
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
      path: '/sso/require',
      run: async (call) => {
        const result = await setRequireSso(prisma, {
          workspaceId: workspaceOf(call),
          enabled: booleanField(call.fields, 'requireSso'),
          actor: call.actor,
        });
        return {
          data: result,
          notice: {
            kind: 'ok',
            title: `Single sign-on is ${result.requireSso ? 'required' : 'optional'} for members in verified domains.`,
          },
        };
      },
    },
    {
      method: 'POST',
      path: '/sso/link-approvals',
      run: async (call) => {
        const approval = await approveLink(
          { prisma },
          {
            workspaceId: workspaceOf(call),
            email: textField(call.fields, 'email', { required: true, max: 320 })!,
            actor: call.actor,
          },
        );
        return {
          data: approval,
          notice: { kind: 'ok', title: `${approval.email}'s next company sign-in links to their account.` },
        };
      },
    },
  ];
}

/** The domains whose people the provider may sign in: claimed, then verified by a TXT record. */
function domainActions(deps: SettingsDeps): SettingsAction[] {
  const { prisma, config } = deps;
  const resolver = txtResolver(config.DNS_RESOLVER);
  return [
    {
      method: 'GET',
      path: '/sso/domains',
      run: async (call) => ({ data: await listDomains(prisma, adminWorkspaceOf(call)) }),
    },
    {
      method: 'POST',
      path: '/sso/domains',
      run: async (call) => {
        const domain = await claimDomain(prisma, {
          workspaceId: workspaceOf(call),
          domain: textField(call.fields, 'domain', { required: true, max: 253 })!,
          actor: call.actor,
        });
        return {
          data: domain,
          notice: { kind: 'ok', title: `Publish TXT ${domain.txtName} = "${domain.txtValue}", then verify.` },
        };
      },
    },
    {
      method: 'POST',
      path: `/sso/domains/${ID}/verify`,
      run: async (call) => {
        const domain = await verifyDomain({ prisma, resolver }, { domainId: call.params[0]!, actor: call.actor });
        return { data: domain, notice: { kind: 'ok', title: `${domain.domain} is verified.` } };
      },
    },
  ];
}
