import type pg from 'pg';
import type { Config } from '../config/index.js';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { createLoaders, type Loaders } from './loaders.js';

/** The context of every GraphQL execution, whether it came through /graphql, /api/v1 or MCP. */
export interface GraphQLContext {
  requestId: string;
  principal: Principal;
  /** Workspace-scoped Prisma client: it cannot read another workspace's rows. */
  db: PrismaClient;
  pool: pg.Pool;
  config: Config;
  loaders: Loaders;
  now: Date;
}

export function buildContext(input: Omit<GraphQLContext, 'loaders' | 'now'>): GraphQLContext {
  return { ...input, loaders: createLoaders(input.db), now: new Date() };
}
