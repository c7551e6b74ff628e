// PLAN_FEATURES is the one table of which plan has what: each door that checks a plan refuses
// exactly where the table says no, on every plan, and says why with the table's sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/db/generated/prisma/enums.js';
import { MANAGE_SSO } from '../../src/sso/connections.js';
import { claimDue, fanOut } from '../../src/webhooks/delivery-steps.js';
import { createEndpoint, type WebhookDeps } from '../../src/webhooks/endpoints.js';
import { appendEvents } from '../../src/webhooks/outbox.js';
import { OPERATOR } from '../../src/workspaces/actor.js';
import { authorizeActor } from '../../src/workspaces/admin-command.js';
import { PLAN_FEATURES, PLANS, planHas, planRefusal, plansWith } from '../../src/workspaces/plans.js';
import { setPlan } from '../../src/workspaces/service.js';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { personWithPassword, signIn } from '../support/web.js';

const served = useListeningApp();
let keyed: Awaited<ReturnType<typeof createKeyedWorkspace>>;
let mcpToken: string;
let deps: WebhookDeps;

beforeAll(async () => {
  const db = served.t.database;
  keyed = await createKeyedWorkspace(db, { plan: 'scale' });
  deps = { prisma: db.prisma, pool: db.pool, box: served.t.box, policy: { allowHttp: true, allowPrivate: true } };
  await createEndpoint(deps, {
    workspaceId: keyed.workspace.id,
    url: 'http://127.0.0.1:9/hook',
    eventTypes: ['scan.completed'],
    actor: OPERATOR,
  });
  await personWithPassword(db, { email: keyed.ownerEmail });
  const owner = await signIn(served.t.app, keyed.ownerEmail);
  const provider = new TestOAuthProvider({ cookie: owner.cookie, workspaceId: keyed.workspace.id });
  await (await connectMcp(served.baseUrl, provider)).close();
  mcpToken = provider.saved!.access_token;
}, 60_000);
afterAll(() => setPlan(served.t.database.prisma, async () => {}, keyed.workspace.slug, 'scale'));

/** Each door's answer on the workspace's current plan: null when served, else its refusal's message. */
const doors = {
  api: async () => {
    const response = await served.t.app.fetch(
      new Request('http://test.local/api/v1/clients', { headers: { authorization: `Bearer ${keyed.key.secret}` } }),
    );
    const body = await json(response);
    return response.status === 200 ? null : `${response.status} ${body.error.code}: ${body.error.message}`;
  },
  mcp: async () => {
    const response = await fetch(`${served.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${mcpToken}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    if (response.status === 200) return (await response.body?.cancel(), null);
    const { error } = await response.json();
    return `${response.status} ${error.code}: ${error.message}`;
  },
  webhooks: async () =>
    refusalOf(authorizeActor(deps.prisma, keyed.workspace.id, OPERATOR, { what: 'x', feature: 'webhooks' })),
  sso: async () => refusalOf(authorizeActor(deps.prisma, keyed.workspace.id, OPERATOR, MANAGE_SSO)),
};

const refusalOf = (attempt: Promise<unknown>) =>
  attempt.then(
    () => null,
    (error: { reason: string; message: string }) => `${error.reason}: ${error.message}`,
  );

/** What the table says each door answers on `plan`. */
const expected = (plan: Plan) => ({
  api: planHas(plan, 'api') ? null : `403 plan_required: ${planRefusal('api', plan)}.`,
  mcp: planHas(plan, 'mcp') ? null : `403 plan_required: ${planRefusal('mcp', plan)}.`,
  webhooks: planHas(plan, 'webhooks') ? null : `plan_required: ${planRefusal('webhooks', plan, keyed.workspace.slug)}`,
  sso: planHas(plan, 'sso') ? null : `plan_required: ${planRefusal('sso', plan, keyed.workspace.slug)}`,
});

/** Whether the webhook worker's claim takes this workspace's delivery of a fresh event. */
async function workerDelivers(): Promise<boolean> {
  const client = await served.t.database.pool.connect();
  try {
    await appendEvents(client, [{ workspaceId: keyed.workspace.id, type: 'scan.completed', data: {} }]);
  } finally {
    client.release();
  }
  await fanOut(served.t.database.pool);
  const claimed = await claimDue(served.t.database.pool, {
    limit: 50,
    perEndpoint: 50,
    perWorkspace: 50,
    leaseSeconds: 600,
  });
  return claimed.some((delivery) => delivery.workspace_id === keyed.workspace.id);
}

describe('which plan has what', () => {
  it('is one table, read in the plans order', () => {
    expect(PLAN_FEATURES).toEqual({
      free: [],
      starter: ['mcp'],
      pro: ['api', 'mcp', 'webhooks', 'sso'],
      agency: ['api', 'mcp', 'webhooks', 'sso'],
      scale: ['api', 'mcp', 'webhooks', 'sso'],
    });
    expect(plansWith('mcp')).toEqual(['starter', 'pro', 'agency', 'scale']);
    expect(planRefusal('api', 'free')).toBe('The API needs the Pro, Agency or Scale plan; this workspace is on Free');
  });

  it('is what every door refuses, on every plan: the API, MCP, admin commands and the webhook worker', async () => {
    const announce = async (target: string) => served.t.app.invalidate(target);
    for (const plan of PLANS) {
      await setPlan(served.t.database.prisma, announce, keyed.workspace.slug, plan);
      const answers = Object.fromEntries(
        await Promise.all(Object.entries(doors).map(async ([door, answer]) => [door, await answer()] as const)),
      );
      expect(answers, plan).toEqual(expected(plan));
      expect(await workerDelivers(), `the worker on ${plan}`).toBe(planHas(plan, 'webhooks'));
    }
  });
});
