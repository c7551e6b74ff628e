import { RequestCache } from '@pothos/plugin-scope-auth';
import type { CompiledQuery } from 'graphql-jit';
import type { Config } from '../config/index.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { Principal } from '../auth/index.js';
import { createLoaders, type Loaders } from './loaders.js';
import { createRepositories, type Repositories } from './repositories.js';
import type { DataCache } from '../db/data-cache.js';

/** The context of every GraphQL execution, whether it came through /graphql, /api/v1 or MCP. */
export interface GraphQLContext {
  requestId: string;
  principal: Principal;
  /** The caller's workspace: every tenant read goes through it (db/workspace-scope.ts). */
  workspace: WorkspaceScope;
  /** Repositories over `workspace`. */
  repositories: Repositories;
  config: Config;
  loaders: Loaders;
  now: Date;
}

export function buildContext(
  input: Pick<GraphQLContext, 'requestId' | 'principal' | 'workspace' | 'config'>,
  cache: DataCache,
): GraphQLContext {
  const { workspace, config } = input;
  // The input is the repositories' env as it is (its scope and config): no object more per request.
  const repositories = createRepositories(input);
  return {
    ...input,
    repositories,
    loaders: createLoaders(repositories, workspace, cache, config.LIST_ROW_CAP, config.METRICS_ROW_CAP),
    now: new Date(),
  };
}

/**
 * Lets go of what Pothos keeps beside a context once its execution is over. Pothos holds
 * per-request state (scope-auth's evaluated scopes) in module-level WeakMaps keyed by the
 * context, and V8's scavenger keeps the entry of a young key in an old WeakMap alive until the
 * next full collection (docs/decisions/request-path-allocations.md).
 */
export function releaseContext(context: GraphQLContext): void {
  RequestCache.clearForContext(context);
}

/** Runs a compiled operation (a v1 route, an MCP tool) and releases its context afterwards. */
export async function runCompiled(
  compiled: CompiledQuery,
  context: GraphQLContext,
  variables: Record<string, unknown>,
) {
  try {
    return await compiled.query(undefined, context, variables);
  } finally {
    releaseContext(context);
  }
}
