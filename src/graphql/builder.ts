import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin, { type AuthFailure } from '@pothos/plugin-scope-auth';
import ComplexityPlugin from '@pothos/plugin-complexity';
import { adminRefusal, hasScope, isWorkspaceAdmin, type Scope } from '../auth/index.js';
import { ApiError } from '../errors/index.js';
import type { GraphQLContext } from './context.js';
import { DEFAULT_LIST_SIZE } from './cost.js';

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
    Scope: { Input: Scope; Output: string };
  };
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, ComplexityPlugin],
  // Fields declare their cost here; the doors compute it before running (graphql/cost.ts), so
  // the plugin's own per-resolver check (a per-context cache) stays off.
  complexity: { disabled: true, defaultComplexity: 1, defaultListMultiplier: DEFAULT_LIST_SIZE },
  scopeAuth: {
    authScopes: (ctx) => ({
      scope: (scope: Scope) => hasScope(ctx.principal, scope),
      admin: isWorkspaceAdmin(ctx.principal),
    }),
    unauthorizedError: (_parent, context, _info, result) => {
      const failed = failedChecks(result.failure);
      if (failed.some((check) => check.scope === 'admin')) return adminRefusal(context.principal);
      const scopes = failed.filter((check) => check.scope === 'scope').map((check) => String(check.parameter));
      // Named as v1 names it ("lacks the reports:read scope"), so every door spells scopes alike;
      // the plugin's own message ("Not authorized to resolve …") names schema internals and never goes out.
      return new ApiError(
        'insufficient_scope',
        scopes.length
          ? `This API key lacks the ${scopes.join(' or ')} scope.`
          : 'This API key lacks the scope this call needs.',
      );
    },
  },
});

/** The scope checks that failed, wherever they sit in the failure's tree. */
function failedChecks(failure: AuthFailure): { scope: string; parameter: unknown }[] {
  if ('failures' in failure) return failure.failures.flatMap(failedChecks);
  return 'scope' in failure && 'parameter' in failure ? [{ scope: failure.scope, parameter: failure.parameter }] : [];
}

builder.queryType({ description: 'Read-only access to one workspace: clients, reports and AI visibility.' });
