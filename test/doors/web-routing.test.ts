// Every door of the web app routes by one path table (doors/path-routes.ts), so they answer alike
// before anyone is asked who they are: a path none takes is a 404, a method a path does not take a
// 405 naming what it does take (Allow), signed in or not; only then does a door ask for a session. HEAD is
// answered wherever GET is.
import { Request as ServerRequest } from '@whatwg-node/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { ORIGIN, personWithPassword, seededOwner, signIn } from '../support/web.js';

let t: TestApp;
let owner: { cookie: string; csrf: string };

beforeAll(async () => {
  t = await createTestApp();
  const agency = await createKeyedWorkspace(t.database);
  await personWithPassword(t.database, { email: agency.ownerEmail });
  owner = await signIn(t.app, agency.ownerEmail);
});
afterAll(() => t.close());

const send = (method: string, path: string, cookie?: string) =>
  t.app.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { accept: 'application/json', origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    }),
  );

// One path of each door, with a method it does not take and what it does take.
const WRONG_METHODS: [door: string, method: string, path: string, allow: string][] = [
  ['sign-in', 'PUT', '/app/login', 'GET, HEAD, POST'],
  ['single sign-on', 'POST', '/app/sso/start', 'GET, HEAD'],
  ['the settings page', 'POST', '/app/settings', 'GET, HEAD'],
  ['a settings action', 'PUT', '/app/settings/api-keys', 'GET, HEAD, POST'],
  ['a settings action with an id', 'GET', '/app/settings/webhooks/wh_1/enable', 'POST'],
  ['a view page', 'POST', '/app/reports/rep_1', 'GET, HEAD'],
  ['a view page below another', 'DELETE', '/app/ai-visibility/prj_1/answers', 'GET, HEAD'],
  ["the views' files", 'POST', '/app/assets/views/report.js', 'GET, HEAD'],
];

describe('the web app routes alike at every door', () => {
  describe.each([
    ['signed out', () => undefined],
    ['signed in', () => owner.cookie],
  ])('%s', (_, cookieOf) => {
    it.each(WRONG_METHODS)('%s: %s %s is 405 with Allow: %s', async (_door, method, path, allow) => {
      const answer = await send(method, path, cookieOf());
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe(allow);
      expect((await json(answer)).error.code).toBe('method_not_allowed');
    });

    it.each([
      ['no settings action', '/app/settings/nothing-here'],
      ['an id of a shape no settings id has', '/app/settings/api-keys/not%20an%20id/revoke'],
      ['no view', '/app/reports/rep_1/more'],
    ])('%s is 404', async (_what, path) => {
      const answer = await send('GET', path, cookieOf());
      expect(answer.status).toBe(404);
      expect((await json(answer)).error.code).toBe('not_found');
    });
  });

  it('answers HEAD wherever GET is taken: the same status and headers, no body', async () => {
    const seeded = await seededOwner(t);
    const { cookie } = await signIn(t.app, seeded.ownerEmail);
    // The node server hands the app @whatwg-node's requests, which the platform's Request cannot copy.
    const ask = (method: string, path: string) =>
      t.app.fetch(new ServerRequest(`${ORIGIN}${path}`, { method, headers: { accept: 'text/html', cookie } }));
    const report = `/app/reports/${seeded.reportId}`;
    const stylesheet = /href="(\/app\/assets\/views\/[^"]+\.css)"/.exec(await (await ask('GET', report)).text())![1]!;
    for (const path of ['/app/login', '/app/settings', report, stylesheet]) {
      const [get, head] = [await ask('GET', path), await ask('HEAD', path)];
      expect(head.status, path).toBe(200);
      expect(get.status, path).toBe(200);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
    }
  });

  it('asks for a session once the path and method are taken', async () => {
    expect((await send('GET', '/app/settings/api-keys')).status).toBe(401);
    expect((await send('GET', '/app/reports/rep_1')).status).toBe(401);
    expect((await send('GET', '/app/settings/api-keys', owner.cookie)).status).toBe(200);
  });
});
