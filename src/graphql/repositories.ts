// The feature repositories of one request, all over the caller's workspace scope: what the
// loaders batch and the resolvers read through.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { lazily } from './lazily.js';
import { clientRepository } from '../clients/index.js';
import { reportRepository } from '../reports/index.js';
import { projectRepository } from '../ai-visibility/index.js';
import { answerRepository, promptRepository, scanRepository } from '../ai-visibility/index.js';
import { signalRepository } from '../signals/index.js';

export function createRepositories(workspace: WorkspaceScope) {
  return lazily({
    clients: () => clientRepository(workspace),
    reports: () => reportRepository(workspace),
    projects: () => projectRepository(workspace),
    scans: () => scanRepository(workspace),
    prompts: () => promptRepository(workspace),
    answers: () => answerRepository(workspace),
    signals: () => signalRepository(workspace),
  });
}

export type Repositories = ReturnType<typeof createRepositories>;
