// Writes never cross workspaces: an owner of one workspace aiming every settings change at
// another workspace's things gets 404, and those things are unchanged and unaudited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { call, personWithPassword, signIn } from '../support/web.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { claimDomain } from '../../src/sso/domains.js';
import { newId } from '../../src/db/ids.js';
import { OPERATOR } from '../../src/workspaces/actor.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
});
afterAll(() => t.close());

describe('write isolation', () => {
  it(
    "every settings change aimed at another workspace's key, endpoint, event, domain " +
      'or grant is 404 and changes nothing',
    async () => {
      const mine = await createKeyedWorkspace(t.database, { plan: 'pro' });
      const theirs = await createKeyedWorkspace(t.database, { plan: 'pro' });
      await personWithPassword(t.database, { email: mine.ownerEmail });
      const me = await signIn(t.app, mine.ownerEmail);
      const webhookDeps = {
        prisma: t.database.prisma,
        pool: t.database.pool,
        box: t.box,
        policy: { allowHttp: false, allowPrivate: false },
      };
      const endpoint = await createEndpoint(webhookDeps, {
        workspaceId: theirs.workspace.id,
        url: 'https://hooks.example.com/x',
        eventTypes: ['scan.completed'],
        actor: OPERATOR,
      });
      const domain = await claimDomain(t.database.prisma, {
        workspaceId: theirs.workspace.id,
        domain: `theirs-${Date.now()}.example`,
        actor: OPERATOR,
      });
      const eventId = newId('event');
      await t.database.prisma.webhookEvent.create({
        data: { id: eventId, workspaceId: theirs.workspace.id, type: 'scan.completed', payload: {} },
      });
      const grantId = `grant-${Date.now()}-theirs`;
      await t.database.pool.query("INSERT INTO oauth_models (model, id, payload) VALUES ('Grant', $1, $2)", [
        grantId,
        JSON.stringify({ accountId: `usr_x.${theirs.workspace.id}`, clientId: 'c' }),
      ]);
      const before = await t.database.prisma.auditLogEntry.count({ where: { workspaceId: theirs.workspace.id } });

      const attempts: [string, unknown][] = [
        [`/app/settings/api-keys/${theirs.key.id}/revoke`, {}],
        [`/app/settings/webhooks/${endpoint.id}/secret`, {}],
        [`/app/settings/webhooks/${endpoint.id}/rotate-secret`, {}],
        [`/app/settings/webhooks/${endpoint.id}/disable`, {}],
        ['/app/settings/webhooks/replay', { eventId }],
        [`/app/settings/sso/domains/${domain.id}/verify`, {}],
        [`/app/settings/mcp/grants/${grantId}/revoke`, {}],
      ];
      for (const [path, body] of attempts) expect((await call(t.app, me, 'POST', path, body)).status, path).toBe(404);
      expect((await call(t.app, me, 'GET', `/app/settings/webhooks/${endpoint.id}/attempts`)).status).toBe(404);

      expect((await t.database.prisma.apiKey.findUniqueOrThrow({ where: { id: theirs.key.id } })).revokedAt).toBeNull();
      const stored = await t.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(stored).toMatchObject({ enabled: true, previousSecret: null });
      expect(
        (await t.database.pool.query("SELECT 1 FROM oauth_models WHERE model = 'Grant' AND id = $1", [grantId]))
          .rowCount,
      ).toBe(1);
      expect(await t.database.prisma.webhookDelivery.count({ where: { eventId } })).toBe(0);
      expect(await t.database.prisma.auditLogEntry.count({ where: { workspaceId: theirs.workspace.id } })).toBe(before);
    },
  );
});
