// The two workspaces the MCP end-to-end tests read and write: mine (the caller's) and theirs
// (whose ids must stay not found), each seeded with 40 days of data for two clients.
import type { Database } from '../../src/db/client.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace } from '../support/app.js';

export type Keyed = Awaited<ReturnType<typeof createKeyedWorkspace>>;

export async function seededWorkspaces(db: Database): Promise<{ mine: Keyed; theirs: Keyed }> {
  const mine = await createKeyedWorkspace(db);
  const theirs = await createKeyedWorkspace(db);
  for (const keyed of [mine, theirs])
    await seedWorkspace(db.prisma, db.pool, { workspaceId: keyed.workspace.id, days: 40, clients: 2 });
  return { mine, theirs };
}
