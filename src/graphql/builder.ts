import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type { Scope } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import type { GraphQLContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  /** scope: a read scope of the credential; admin: a signed-in owner or admin (session or MCP), never an API key. */
  AuthScopes: { scope: Scope; admin: boolean };
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    Date: { Input: string; Output: string };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
    ClientId: { Input: string; Output: string };
    ReportId: { Input: string; Output: string };
    ProjectId: { Input: string; Output: string };
    PromptId: { Input: string; Output: string };
    AnswerId: { Input: string; Output: string };
  };
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin],
  scopeAuth: {
    authScopes: async (ctx) => ({
      scope: (scope: Scope) => ctx.principal.scopes.includes(scope),
      admin: ctx.principal.kind !== 'api_key' && ctx.principal.role !== 'member',
    }),
    unauthorizedError: (_parent, context, _info, result) =>
      context.principal.kind === 'api_key' || !/admin/.test(result.message)
        ? new ApiError('insufficient_scope', `This API key lacks the scope this call needs. ${result.message}`)
        : new ApiError('forbidden', 'Only owners and admins of the workspace may read this.'),
  },
});

builder.queryType({ description: 'Read-only access to one workspace: clients, reports and AI visibility.' });
