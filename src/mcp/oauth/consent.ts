// The authorization server's interaction step: the person signs in to the web app (password
// or SSO; not signed in → the sign-in page and back), then consents on our page for one
// workspace on a paid plan (consent-page.ts). The grant's account is that membership.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { PrismaClient } from '../../db/generated/prisma/client.js';
import { pageSecurityHeaders } from '../../http/html.js';
import { recordAudit } from '../../audit/index.js';
import { signInLocation } from '../../sessions/index.js';
import { workspacesOf } from '../../sessions/index.js';
import type { WebSessions } from '../../sessions/index.js';
import { consentPage } from './consent-page.js';
import { verifiedClientHost } from './client-metadata-documents.js';
import { consentOf, RESOURCE_SCOPES, toolsetScope, WRITE_SCOPE } from '../tools/toolsets.js';
import { accountIdOf, GRANTABLE_SCOPES, MCP_PLANS, MCP_SCOPE, planIncludesMcp } from './oauth-accounts.js';

export const INTERACTION_PREFIX = '/oauth/interaction/';

export interface ConsentDeps {
  pool: pg.Pool;
  prisma: PrismaClient;
  sessions: WebSessions;
  issuer(): string;
  resource(): string;
}

const headersOf = (req: IncomingMessage) => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  return headers;
};

export function createConsent(deps: ConsentDeps) {
  const { pool } = deps;
  const issuer = deps.issuer;
  const resource = deps.resource;

  async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url!, issuer());
    // Only the headers matter to the session and origin checks; the body was read already.
    const request = new Request(url, { headers: headersOf(req), method: req.method === 'POST' ? 'POST' : 'GET' });
    const details = await provider.interactionDetails(req, res);
    const session = await deps.sessions.read(request);
    if (!session) {
      res.writeHead(303, { Location: signInLocation(url), 'Cache-Control': 'no-store' }).end();
      return;
    }
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    const workspaces = await consentWorkspaces(session);
    const requested = String(details.params.scope ?? '').split(' ');
    const offered = consentOf(requested);

    if (req.method === 'POST') {
      deps.sessions.assertSameOrigin(request);
      const form = new URLSearchParams((req as IncomingMessage & { body?: Buffer }).body?.toString('utf8') ?? '');
      deps.sessions.assertCsrf(session, request, Object.fromEntries(form));
      if (form.get('decision') !== 'allow') {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The person declined.' },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const workspace = workspaces.find((candidate) => candidate.id === form.get('workspace'));
      if (!workspace) throw new errors.AccessDenied('choose one of your workspaces on a paid plan');
      // The person can narrow what the client asked for, never widen it.
      const toolsets = [...offered.toolsets].filter((toolset) => form.getAll('toolset').includes(toolset));
      if (!toolsets.length) throw new errors.AccessDenied('choose at least one group of tools');
      const writes = offered.writes && form.get('writes') === 'on';
      const accountId = accountIdOf(session.userId, workspace.id);
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      const granted = [MCP_SCOPE, ...toolsets.map(toolsetScope), ...(writes ? [WRITE_SCOPE] : [])];
      grant.addResourceScope(resource(), granted.join(' '));
      // Every scope asked for is granted or rejected, never left out: the provider asks again (a
      // loop) for a requested scope the grant has not seen (`openid mcp` looped so).
      const declined = requested.filter((scope) => RESOURCE_SCOPES.includes(scope) && !granted.includes(scope));
      if (declined.length) grant.rejectResourceScope(resource(), declined.join(' '));
      const oidcScopes = requested.filter((scope) => GRANTABLE_SCOPES.includes(scope));
      if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
      const grantId = await grant.save();
      await recordAudit(deps.prisma, {
        workspaceId: workspace.id,
        actor: session.userId,
        action: 'mcp.client_authorized',
        target: String(details.params.client_id),
        details: { clientName, grantId, toolsets, writes },
      });
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }

    const redirectUri = new URL(String(details.params.redirect_uri));
    const issuedAt = Number(client?.metadata().client_id_issued_at);
    const body = consentPage({
      action: url.pathname,
      csrfToken: session.csrfToken,
      email: session.email,
      clientName,
      clientId: String(details.params.client_id),
      redirectHost: redirectUri.host,
      registeredAt: Number.isFinite(issuedAt) ? new Date(issuedAt * 1000) : null,
      verifiedHost: verifiedClientHost(client),
      stayConnected: client?.grantTypeAllowed('refresh_token') ?? false,
      workspaces,
      toolsets: [...offered.toolsets],
      writesRequested: offered.writes,
      selectedWorkspaceId: session.workspaceId,
      paidPlans: MCP_PLANS,
    });
    // The form posts here, and the answer redirects to the client: both must be allowed form targets.
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      ...pageSecurityHeaders({ formAction: [redirectUri.origin] }),
    });
    res.end(body.value);
  }

  async function consentWorkspaces(session: { userId: string; ssoWorkspaceId: string | null }) {
    const workspaces = (await workspacesOf(pool, session)).filter((workspace) => planIncludesMcp(workspace.plan));
    const switches = await pool.query<{ id: string; mcp_write_actions: boolean }>(
      'SELECT id, mcp_write_actions FROM workspaces WHERE id = ANY($1::text[])',
      [workspaces.map((workspace) => workspace.id)],
    );
    const writes = new Map(switches.rows.map((row) => [row.id, row.mcp_write_actions]));
    return workspaces.map((workspace) => ({ ...workspace, writeActions: writes.get(workspace.id) ?? false }));
  }

  return { interaction };
}
