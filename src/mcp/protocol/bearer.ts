// Who calls /mcp: the bearer token our authorization server issued, and the holder it stands
// for. Without a valid one the answer is 401 with the resource-metadata pointer and the scopes
// this URL's selection needs (SDK clients ask for them as they are).
import { bearerToken, SCOPES } from '../../auth/index.js';
import { ApiError } from '../../errors/index.js';
import { planRefusal } from '../../workspaces/index.js';
import { MCP_PATH } from '../connector.js';
import { mcpErrorResponse } from '../errors.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import { planIncludesMcp } from '../oauth/oauth-accounts.js';
import type { Holder } from '../tools/tool-calls.js';
import { consentOf, scopesFor, type ToolSelection } from '../tools/toolsets.js';

/** The holder of a valid token, or why there is none: no token, an unusable one, or a refusal (the plan). */
export type Authentication = Holder | 'missing' | 'invalid' | ApiError;

export async function authenticate(server: AuthorizationServer, request: Request): Promise<Authentication> {
  const token = bearerToken(request.headers.get('authorization'));
  if (!token) return 'missing';
  const holder = await server.verifyAccessToken(token);
  if (!holder) return 'invalid';
  if (!planIncludesMcp(holder.plan)) return new ApiError('plan_required', `${planRefusal('mcp', holder.plan)}.`);
  return {
    principal: {
      kind: 'oauth',
      credentialId: `${holder.clientId}:${holder.userId}`,
      workspaceId: holder.workspaceId,
      plan: holder.plan,
      timezone: holder.timezone,
      scopes: SCOPES,
      userId: holder.userId,
      email: holder.email,
      role: holder.role,
      clientId: holder.clientId,
      clientName: holder.clientName,
    },
    token,
    scopes: holder.scopes,
    writeActions: holder.writeActions,
    consent: consentOf(holder.scopes),
  };
}

const INVALID_TOKEN = {
  code: 'invalid_token',
  description: 'The access token is unknown, expired, revoked or for another resource.',
};

/** 401 with where to get a token and the scopes this URL's selection needs. */
export function unauthorized(
  server: AuthorizationServer,
  requestId: string,
  selection: ToolSelection,
  authentication: 'missing' | 'invalid',
) {
  const error = authentication === 'invalid' ? INVALID_TOKEN : null;
  const challenge = [
    `Bearer resource_metadata="${server.issuer()}/.well-known/oauth-protected-resource${MCP_PATH}"`,
    `scope="${scopesFor(selection).join(' ')}"`,
    ...(error ? [`error="${error.code}"`, `error_description="${error.description}"`] : []),
  ].join(', ');
  const message =
    error?.description ??
    'Send an OAuth access token for this MCP server (discover the authorization server ' +
      'from the WWW-Authenticate header).';
  return mcpErrorResponse(new ApiError('unauthenticated', message), requestId, { 'WWW-Authenticate': challenge });
}
