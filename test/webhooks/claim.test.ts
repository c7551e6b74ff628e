// The claim step against a real PostgreSQL with no worker running, so the test decides what is due
// and when it is claimed: workspaces take turns, and one workspace's leases bound its next claims.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimDue, fanOut } from '../../src/webhooks/delivery-steps.js';
import { createEndpoint, type WebhookDeps } from '../../src/webhooks/endpoints.js';
import { appendEvents } from '../../src/webhooks/outbox.js';
import { OPERATOR } from '../../src/workspaces/actor.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let deps: WebhookDeps;

beforeAll(async () => {
  t = await createTestApp();
  deps = {
    prisma: t.database.prisma,
    pool: t.database.pool,
    box: t.box,
    policy: { allowHttp: true, allowPrivate: true },
  };
});
afterAll(() => t.close());

/** A workspace with one endpoint and `count` events fanned out to it (due now, after everything due before). */
async function workspaceWithDue(count: number) {
  const { workspace } = await createKeyedWorkspace(t.database);
  await createEndpoint(deps, {
    workspaceId: workspace.id,
    url: 'http://127.0.0.1:9/hook',
    eventTypes: ['scan.completed'],
    actor: OPERATOR,
  });
  const client = await t.database.pool.connect();
  try {
    await appendEvents(
      client,
      Array.from({ length: count }, (_, index) => ({
        workspaceId: workspace.id,
        type: 'scan.completed' as const,
        data: { index },
      })),
    );
  } finally {
    client.release();
  }
  await fanOut(t.database.pool);
  return workspace.id;
}

it(
  "takes every workspace's earliest due delivery before any second, and counts a workspace's leases " +
    'against its bound',
  async () => {
    const busy = await workspaceWithDue(5);
    const later = await workspaceWithDue(1);
    const claim = (limit: number, perWorkspace: number) =>
      claimDue(t.database.pool, { limit, perEndpoint: 8, perWorkspace, leaseSeconds: 60 });

    // The busy workspace's five are due first; the other's one still goes out in the first claim.
    expect((await claim(2, 8)).map((delivery) => delivery.workspace_id).sort()).toEqual([busy, later].sort());
    // One lease held, a bound of two: one more, however many slots are free.
    expect((await claim(10, 2)).map((delivery) => delivery.workspace_id)).toEqual([busy]);
    expect(await claim(10, 2)).toEqual([]);
  },
);
