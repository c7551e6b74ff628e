import type { Config } from '../config/index.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { Principal } from '../auth/principal.js';
import { clientRepository } from '../clients/repository.js';
import { reportRepository } from '../reports/repository.js';
import { projectRepository } from '../ai-visibility/repository.js';
import { scanRepository } from '../ai-visibility/scans-repository.js';
import { signalRepository } from '../signals/repository.js';
import { createLoaders, type Loaders } from './loaders.js';
import type { DataCache } from './data-cache.js';

export interface Repositories {
  clients: ReturnType<typeof clientRepository>;
  reports: ReturnType<typeof reportRepository>;
  projects: ReturnType<typeof projectRepository>;
  scans: ReturnType<typeof scanRepository>;
  signals: ReturnType<typeof signalRepository>;
}

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

export function buildContext(input: Pick<GraphQLContext, 'requestId' | 'principal' | 'workspace' | 'config'>, cache: DataCache): GraphQLContext {
  const { workspace, config } = input;
  const repositories: Repositories = {
    clients: clientRepository(workspace),
    reports: reportRepository(workspace),
    projects: projectRepository(workspace),
    scans: scanRepository(workspace),
    signals: signalRepository(workspace),
  };
  return { ...input, repositories, loaders: createLoaders(repositories, workspace, cache, config.LIST_ROW_CAP, config.METRICS_ROW_CAP), now: new Date() };
}
