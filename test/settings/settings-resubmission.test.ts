// A create form of the settings page sent again (a reload after "Create key" re-posts it) creates nothing more:
// each drawing of the form carries a one-time id, and the second send is refused with what the first created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { ORIGIN, personWithPassword, signIn } from '../support/web.js';

let t: TestApp;
let owner: { cookie: string; csrf: string };
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_HTTP: 'true' });
  const keyed = await createKeyedWorkspace(t.database, { plan: 'pro' });
  workspaceId = keyed.workspace.id;
  await personWithPassword(t.database, { email: keyed.ownerEmail });
  owner = await signIn(t.app, keyed.ownerEmail);
});
afterAll(() => t.close());

/** The hidden fields of the page's form that posts to `action`, as a browser would send them. */
async function formOnPage(action: string): Promise<Record<string, string>> {
  const page = await t.app.fetch(
    new Request(`${ORIGIN}/app/settings`, { headers: { cookie: owner.cookie, accept: 'text/html' } }),
  );
  const text = await page.text();
  const form = text.slice(text.indexOf(`action="${action}"`));
  const hidden = form.slice(0, form.indexOf('</form>')).matchAll(/type="hidden" name="(\w+)" value="([^"]+)"/g);
  return Object.fromEntries([...hidden].map(([, name, value]) => [name!, value!]));
}

const send = (action: string, fields: Record<string, string>) =>
  t.app.fetch(
    new Request(`${ORIGIN}${action}`, {
      method: 'POST',
      headers: {
        cookie: owner.cookie,
        origin: ORIGIN,
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(fields).toString(),
    }),
  );

describe('a settings create form sent twice', () => {
  it('creates one API key, and answers the second send with the key the first created', async () => {
    const fields: Record<string, string> = {
      ...(await formOnPage('/app/settings/api-keys')),
      name: 'sent twice',
      scopes: 'clients:read',
    };
    expect(fields.formId).toMatch(/^\w{16,}$/);
    const first = await send('/app/settings/api-keys', fields);
    expect(first.status).toBe(200);
    const second = await send('/app/settings/api-keys', fields);
    expect(second.status).toBe(409);
    const keys = await t.database.prisma.apiKey.findMany({ where: { workspaceId, name: 'sent twice' } });
    expect(keys).toHaveLength(1);
    const page = await second.text();
    expect(page).toContain(`this form was already sent and created ${keys[0]!.id}`);
    expect(page).not.toContain('sgb_live_');
  });

  it('creates one webhook endpoint even when both sends arrive at once', async () => {
    const url = 'https://hooks.example.com/twice';
    const fields = { ...(await formOnPage('/app/settings/webhooks')), url, eventTypes: 'scan.completed' };
    const statuses = (await Promise.all([1, 2].map(() => send('/app/settings/webhooks', fields)))).map(
      (response) => response.status,
    );
    expect(statuses.sort()).toEqual([200, 409]);
    expect(await t.database.prisma.webhookEndpoint.count({ where: { workspaceId, url } })).toBe(1);
  });

  it('draws a new form id each time the page is drawn, so the next key can be made', async () => {
    const [one, two] = [await formOnPage('/app/settings/api-keys'), await formOnPage('/app/settings/api-keys')];
    expect(one.formId).not.toBe(two.formId);
  });
});
