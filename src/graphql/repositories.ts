// The feature repositories of one request, all over the caller's workspace scope: what the
// loaders batch and the resolvers read through.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { Config } from '../config/index.js';
import { lazyRecord } from './lazily.js';
import { clientRepository } from '../clients/index.js';
import { reportRepository } from '../reports/index.js';
import { projectRepository } from '../ai-visibility/index.js';
import { answerRepository, answersReadMaxBytes, promptRepository, scanRepository } from '../ai-visibility/index.js';
import { signalRepository } from '../signals/index.js';

/** What the repositories are made from: the request's context (its scope, and the config's read bounds). */
type RepositoryEnv = { workspace: WorkspaceScope; config: Pick<Config, 'RESPONSE_MAX_BYTES'> };

export const createRepositories = lazyRecord<RepositoryEnv>()({
  clients: ({ workspace }) => clientRepository(workspace),
  reports: ({ workspace }) => reportRepository(workspace),
  projects: ({ workspace }) => projectRepository(workspace),
  scans: ({ workspace }) => scanRepository(workspace),
  prompts: ({ workspace }) => promptRepository(workspace),
  answers: ({ workspace, config }) => answerRepository(workspace, answersReadMaxBytes(config.RESPONSE_MAX_BYTES)),
  signals: ({ workspace }) => signalRepository(workspace),
});

export type Repositories = ReturnType<typeof createRepositories>;
