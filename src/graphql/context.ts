import type pg from 'pg';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { workspaceSql } from '../db/workspace-sql.js';
import type { Principal } from '../auth/principal.js';
import { clientRepository } from '../clients/repository.js';
import { reportRepository } from '../reports/repository.js';
import { projectRepository } from '../ai-visibility/repository.js';
import { createLoaders, type Loaders } from './loaders.js';

export interface Repositories {
  clients: ReturnType<typeof clientRepository>;
  reports: ReturnType<typeof reportRepository>;
  projects: ReturnType<typeof projectRepository>;
}

/** The context of every GraphQL execution, whether it came through /graphql, /api/v1 or MCP. */
export interface GraphQLContext {
  requestId: string;
  principal: Principal;
  /** Workspace-scoped Prisma client (Pothos' client); it cannot read another workspace's rows. */
  db: PrismaClient;
  /** Workspace-bound SQL repositories of the hot read paths. */
  repositories: Repositories;
  /** The read pool (a replica when configured): repositories and the report/metrics engines. */
  pool: pg.Pool;
  config: Config;
  loaders: Loaders;
  now: Date;
}

export function buildContext(input: Omit<GraphQLContext, 'loaders' | 'now' | 'repositories'>): GraphQLContext {
  const sql = workspaceSql(input.pool, input.principal.workspaceId);
  const repositories = { clients: clientRepository(sql), reports: reportRepository(sql), projects: projectRepository(sql) };
  return { ...input, repositories, loaders: createLoaders(repositories), now: new Date() };
}
