// One workspace's settings door tells nothing about another's: an id of another workspace is answered
// exactly as an unknown one, and a member is refused (403) before any id they send is looked at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { call, personWithPassword, signIn } from '../support/web.js';
import { recordFailedAttempt } from './attempts.js';

let t: TestApp;
let ownerB: { cookie: string; csrf: string };
let memberB: { cookie: string; csrf: string };
let endpointOfA: string;
let eventOfA: string;
let keyOfA: string;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_HTTP: 'true' });
  const a = await createKeyedWorkspace(t.database, { plan: 'pro' });
  const b = await createKeyedWorkspace(t.database, { plan: 'pro' });
  await personWithPassword(t.database, { email: a.ownerEmail });
  await personWithPassword(t.database, { email: b.ownerEmail });
  const memberEmail = `member-${b.workspace.slug}@example.test`;
  await personWithPassword(t.database, { email: memberEmail, workspaceId: b.workspace.id, role: 'member' });
  keyOfA = a.key.id;
  const ownerA = await signIn(t.app, a.ownerEmail);
  ownerB = await signIn(t.app, b.ownerEmail);
  memberB = await signIn(t.app, memberEmail);
  const created = await call(t.app, ownerA, 'POST', '/app/settings/webhooks', { url: 'https://hooks.example.com/a' });
  endpointOfA = (await json(created)).data.id;
  eventOfA = (await recordFailedAttempt(t.database.prisma, a.workspace.id, endpointOfA)).eventId;
});
afterAll(() => t.close());

/** What an answer tells: its status and error, with the id asked about blanked out. */
async function told(response: Response, id: string) {
  const body = await json(response);
  return { status: response.status, code: body.error?.code, message: body.error?.message?.replaceAll(id, '<id>') };
}

const ENDPOINT_CALLS = [
  ['GET', 'attempts'],
  ['POST', 'secret'],
  ['POST', 'rotate-secret'],
  ['POST', 'enable'],
  ['POST', 'disable'],
] as const;

describe("another workspace's things in settings", () => {
  it('answer an endpoint id of another workspace exactly as an unknown one (404, same message)', async () => {
    const unknown = newId('endpoint');
    for (const [method, verb] of ENDPOINT_CALLS) {
      const ask = (id: string) =>
        call(t.app, ownerB, method, `/app/settings/webhooks/${id}/${verb}`, method === 'POST' ? {} : undefined);
      const foreign = await told(await ask(endpointOfA), endpointOfA);
      expect(foreign, verb).toEqual(await told(await ask(unknown), unknown));
      expect(foreign, verb).toMatchObject({ status: 404, code: 'not_found', message: 'no webhook endpoint <id>' });
    }
  });

  it('answer an event id of another workspace exactly as an unknown one when replaying', async () => {
    const unknown = newId('event');
    const replay = (eventId: string) => call(t.app, ownerB, 'POST', '/app/settings/webhooks/replay', { eventId });
    const foreign = await told(await replay(eventOfA), eventOfA);
    expect(foreign).toEqual(await told(await replay(unknown), unknown));
    expect(foreign).toMatchObject({ status: 404, code: 'not_found' });
  });

  it("answer revoking another workspace's API key exactly as an unknown one, and leave the key working", async () => {
    const revoke = (id: string) => call(t.app, ownerB, 'POST', `/app/settings/api-keys/${id}/revoke`, {});
    const foreign = await told(await revoke(keyOfA), keyOfA);
    expect(foreign).toEqual(await told(await revoke('nokey'), 'nokey'));
    expect(foreign).toMatchObject({ status: 404, code: 'not_found' });
    expect((await t.database.prisma.apiKey.findUniqueOrThrow({ where: { id: keyOfA } })).revokedAt).toBeNull();
  });

  it('refuse a member (403 forbidden) before looking at the id they send, known, unknown or malformed', async () => {
    const paths = [
      ...ENDPOINT_CALLS.flatMap(([method, verb]) =>
        ['notanid', newId('endpoint'), endpointOfA].map((id) => [method, `webhooks/${id}/${verb}`] as const),
      ),
      ['POST', 'webhooks/replay'],
      ['POST', 'api-keys/notakey/revoke'],
      ['POST', 'sso/domains/notanid/verify'],
    ] as const;
    for (const [method, path] of paths) {
      const response = await call(
        t.app,
        memberB,
        method,
        `/app/settings/${path}`,
        method === 'POST' ? { eventId: 'x' } : undefined,
      );
      expect(response.status, path).toBe(403);
      expect((await json(response)).error.code, path).toBe('forbidden');
    }
  });
});
