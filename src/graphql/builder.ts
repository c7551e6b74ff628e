import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type PrismaTypes from '../db/generated/pothos-types.js';
import { getDatamodel } from '../db/generated/pothos-types.js';
import type { Scope } from '../auth/principal.js';
import { ApiError } from '../errors/index.js';
import type { GraphQLContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { scope: Scope };
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    Date: { Input: string; Output: string };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
    ClientId: { Input: string; Output: string };
    ReportId: { Input: string; Output: string };
    ProjectId: { Input: string; Output: string };
  };
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, PrismaPlugin],
  prisma: {
    client: (ctx) => ctx.workspace.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  scopeAuth: {
    authScopes: async (ctx) => ({ scope: (scope: Scope) => ctx.principal.scopes.includes(scope) }),
    unauthorizedError: (_parent, _context, _info, result) =>
      new ApiError('insufficient_scope', `This API key lacks the scope this call needs. ${result.message}`),
  },
});

builder.queryType({ description: 'Read-only access to one workspace: clients, reports and AI visibility.' });
