// The authorization server's interaction step: the person signs in to the web app (password
// or SSO; not signed in → the sign-in page and back), then consents on our page for one
// workspace on a paid plan (consent-page.ts). The grant's account is that membership.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { pageSecurityHeaders } from '../../http/html.js';
import { recordAudit } from '../../audit/index.js';
import { signInLocation } from '../../sessions/index.js';
import { workspacesOf } from '../../sessions/index.js';
import type { WebSessions } from '../../sessions/index.js';
import { consentPage } from './consent-page.js';
import { verifiedClientHost } from './client-metadata-documents.js';
import { consentOf, RESOURCE_SCOPES, toolsetScope, WRITE_SCOPE, type Consent } from '../tools/toolsets.js';
import { runStatement, sqlStatement } from '../../db/sql-runner.js';
import { accountIdOf, GRANTABLE_SCOPES, MCP_PLANS, MCP_SCOPE, planIncludesMcp } from './oauth-accounts.js';

export const INTERACTION_PREFIX = '/oauth/interaction/';

export interface ConsentDeps {
  pool: pg.Pool;
  sessions: WebSessions;
  issuer(): string;
  resource(): string;
}

const headersOf = (req: IncomingMessage) => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  return headers;
};

const WRITE_SWITCHES = sqlStatement<{ id: string; mcp_write_actions: boolean }, { workspaceIds: string[] }>(
  'mcp.write-switches',
  (param) => `SELECT id, mcp_write_actions FROM workspaces WHERE id = ANY(${param('workspaceIds')}::text[])`,
);

async function consentWorkspaces(pool: pg.Pool, session: { userId: string; ssoWorkspaceId: string | null }) {
  const workspaces = (await workspacesOf(pool, session)).filter((workspace) => planIncludesMcp(workspace.plan));
  const switches = await runStatement(pool, WRITE_SWITCHES, {
    workspaceIds: workspaces.map((workspace) => workspace.id),
  });
  const writes = new Map(switches.rows.map((row) => [row.id, row.mcp_write_actions]));
  return workspaces.map((workspace) => ({ ...workspace, writeActions: writes.get(workspace.id) ?? false }));
}

/** One interaction request, read: who the person is, which client asks, for what, and where they may grant it. */
interface Step {
  provider: Provider;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  request: Request;
  details: Awaited<ReturnType<Provider['interactionDetails']>>;
  session: NonNullable<Awaited<ReturnType<WebSessions['read']>>>;
  client: Awaited<ReturnType<Provider['Client']['find']>>;
  clientName: string;
  workspaces: Awaited<ReturnType<typeof consentWorkspaces>>;
  requested: string[];
  offered: Consent;
}

/** The grant the person chose — narrowed from what the client asked, never widened — saved. */
async function saveGrant(deps: ConsentDeps, step: Step, form: URLSearchParams) {
  const workspace = step.workspaces.find((candidate) => candidate.id === form.get('workspace'));
  if (!workspace) throw new errors.AccessDenied('choose one of your workspaces on a paid plan');
  const toolsets = [...step.offered.toolsets].filter((toolset) => form.getAll('toolset').includes(toolset));
  if (!toolsets.length) throw new errors.AccessDenied('choose at least one group of tools');
  const writes = step.offered.writes && form.get('writes') === 'on';
  const accountId = accountIdOf(step.session.userId, workspace.id);
  const clientId = String(step.details.params.client_id);
  const grant = new step.provider.Grant({ accountId, clientId });
  const granted = [MCP_SCOPE, ...toolsets.map(toolsetScope), ...(writes ? [WRITE_SCOPE] : [])];
  grant.addResourceScope(deps.resource(), granted.join(' '));
  // Every scope asked for is granted or rejected, never left out: the provider asks again (a
  // loop) for a requested scope the grant has not seen (`openid mcp` looped so).
  const declined = step.requested.filter((scope) => RESOURCE_SCOPES.includes(scope) && !granted.includes(scope));
  if (declined.length) grant.rejectResourceScope(deps.resource(), declined.join(' '));
  const oidcScopes = step.requested.filter((scope) => GRANTABLE_SCOPES.includes(scope));
  if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
  const grantId = await grant.save();
  await recordAudit(deps.pool, {
    workspaceId: workspace.id,
    actor: step.session.userId,
    action: 'mcp.client_authorized',
    target: clientId,
    details: { clientName: step.clientName, grantId, toolsets, writes },
  });
  return { accountId, grantId };
}

/** The consent form posted: declined, or the grant saved and the flow finished. */
async function decide(deps: ConsentDeps, step: Step) {
  const { provider, req, res, request, session } = step;
  deps.sessions.assertSameOrigin(request);
  const form = new URLSearchParams((req as IncomingMessage & { body?: Buffer }).body?.toString('utf8') ?? '');
  deps.sessions.assertCsrf(session, request, Object.fromEntries(form));
  const result =
    form.get('decision') === 'allow'
      ? await saveGrant(deps, step, form).then(({ accountId, grantId }) => ({
          login: { accountId },
          consent: { grantId },
        }))
      : { error: 'access_denied', error_description: 'The person declined.' };
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
}

/** The consent page for the client's request. */
function showConsent(step: Step) {
  const { details, client, session, offered } = step;
  const redirectUri = new URL(String(details.params.redirect_uri));
  const issuedAt = Number(client?.metadata().client_id_issued_at);
  const body = consentPage({
    action: step.url.pathname,
    csrfToken: session.csrfToken,
    email: session.email,
    clientName: step.clientName,
    clientId: String(details.params.client_id),
    redirectHost: redirectUri.host,
    registeredAt: Number.isFinite(issuedAt) ? new Date(issuedAt * 1000) : null,
    verifiedHost: verifiedClientHost(client),
    stayConnected: client?.grantTypeAllowed('refresh_token') ?? false,
    workspaces: step.workspaces,
    toolsets: [...offered.toolsets],
    writesRequested: offered.writes,
    selectedWorkspaceId: session.workspaceId,
    paidPlans: MCP_PLANS,
  });
  // The form posts here, and the answer redirects to the client: both must be allowed form targets.
  step.res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    ...pageSecurityHeaders({ formAction: [redirectUri.origin] }),
  });
  step.res.end(body.value);
}

export function createConsent(deps: ConsentDeps) {
  async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url!, deps.issuer());
    // Only the headers matter to the session and origin checks; the body was read already.
    const request = new Request(url, { headers: headersOf(req), method: req.method === 'POST' ? 'POST' : 'GET' });
    const details = await provider.interactionDetails(req, res);
    const session = await deps.sessions.read(request);
    if (!session) {
      res.writeHead(303, { Location: signInLocation(url), 'Cache-Control': 'no-store' }).end();
      return;
    }
    const client = await provider.Client.find(String(details.params.client_id));
    const requested = String(details.params.scope ?? '').split(' ');
    const step: Step = {
      provider,
      req,
      res,
      url,
      request,
      details,
      session,
      client,
      clientName: client?.clientName ?? String(details.params.client_id),
      workspaces: await consentWorkspaces(deps.pool, session),
      requested,
      offered: consentOf(requested),
    };
    if (req.method === 'POST') await decide(deps, step);
    else showConsent(step);
  }

  return { interaction };
}
