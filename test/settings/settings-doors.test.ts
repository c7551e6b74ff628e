// The settings door agrees with the other doors: a plan refusal is `plan_required` as on v1 and
// MCP, replaying failed deliveries is refused where webhooks are (settings and CLI alike), a
// malformed path under /app answers a browser with a page, and an endpoint's attempts are a
// page for a person and JSON for a program.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runInProcess } from '../support/cli.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { call, ORIGIN, personWithPassword, signIn } from '../support/web.js';
import { recordFailedAttempt } from './attempts.js';

let t: TestApp;
let owner: { cookie: string; csrf: string };
let proWorkspaceId: string;
let free: Awaited<ReturnType<typeof createKeyedWorkspace>>;
let freeOwner: { cookie: string; csrf: string };

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_HTTP: 'true' });
  const pro = await createKeyedWorkspace(t.database, { plan: 'pro' });
  await personWithPassword(t.database, { email: pro.ownerEmail });
  owner = await signIn(t.app, pro.ownerEmail);
  proWorkspaceId = pro.workspace.id;
  free = await createKeyedWorkspace(t.database, { plan: 'free' });
  await personWithPassword(t.database, { email: free.ownerEmail });
  freeOwner = await signIn(t.app, free.ownerEmail);
});
afterAll(() => t.close());

const webhooksRefusal = (plan: string) => ({
  code: 'plan_required',
  message: expect.stringMatching(new RegExp(`^webhooks need the Pro, Agency or Scale plan; .* is on ${plan}`)),
});

describe('the settings door beside the others', () => {
  it('refuses a feature the plan lacks with plan_required, as v1 and MCP do', async () => {
    const refused = await call(t.app, freeOwner, 'POST', '/app/settings/webhooks', { url: 'https://hooks.example/x' });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toMatchObject(webhooksRefusal('Free'));
    const sso = await call(t.app, freeOwner, 'POST', '/app/settings/sso/domains', { domain: 'example.org' });
    expect((await json(sso)).error.code).toBe('plan_required');
  });

  it('refuses replaying failed deliveries on a plan without webhooks, in settings and at the CLI', async () => {
    const refused = await call(t.app, freeOwner, 'POST', '/app/settings/webhooks/replay-failed', {
      since: '2026-01-01',
    });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toMatchObject(webhooksRefusal('Free'));
    const args = ['webhooks', 'replay-failed', '--workspace', free.workspace.slug, '--since', '2026-01-01T00:00:00Z'];
    const cli = await runInProcess(cliEnv(t.url), args);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/webhooks need the Pro, Agency or Scale plan/);
    const allowed = await call(t.app, owner, 'POST', '/app/settings/webhooks/replay-failed', { since: '2026-01-01' });
    expect((await json(allowed)).data).toEqual({ replayed: 0 });
  });

  it('answers a malformed path under /app with a page for a browser, and the envelope for a program', async () => {
    const malformed = (accept: string) =>
      t.app.fetch(new Request(`${ORIGIN}/app/settings/%FF`, { headers: { cookie: owner.cookie, accept } }));
    const page = await malformed('text/html');
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('The path is not valid percent-encoded UTF-8');
    const envelope = await malformed('application/json');
    expect(envelope.status).toBe(400);
    expect((await json(envelope)).error.code).toBe('bad_request');
    const v1 = await t.app.fetch(new Request(`${ORIGIN}/api/v1/%FF`, { headers: { accept: 'text/html' } }));
    expect(v1.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it("shows an endpoint's attempts to a browser as a page, and as JSON to a program", async () => {
    const endpoint = (
      await json(
        await call(t.app, owner, 'POST', '/app/settings/webhooks', {
          url: 'https://hooks.example.com/attempts',
          eventTypes: ['scan.completed'],
        }),
      )
    ).data;
    const { eventId } = await recordFailedAttempt(t.database.prisma, proWorkspaceId, endpoint.id);
    const attempts = (accept: string) =>
      t.app.fetch(
        new Request(`${ORIGIN}/app/settings/webhooks/${endpoint.id}/attempts`, {
          headers: { cookie: owner.cookie, accept },
        }),
      );
    const page = await attempts('text/html,application/xhtml+xml');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await page.text();
    for (const shown of [eventId, 'HTTP 503', 'the receiver was down', '42 ms', 'href="/app/settings#webhooks"'])
      expect(text, shown).toContain(shown);
    // Under the settings page's own header: the views menu, the workspace switch, signing out.
    const settings = await (
      await t.app.fetch(
        new Request(`${ORIGIN}/app/settings`, { headers: { cookie: owner.cookie, accept: 'text/html' } }),
      )
    ).text();
    const header = (html: string) => /<header>[\s\S]*?<\/header>/.exec(html)?.[0];
    expect(header(text)).toContain('action="/app/logout"');
    expect(header(text)).toBe(header(settings));
    const list = await json(await attempts('application/json'));
    expect(list.data).toMatchObject([{ eventId, responseStatus: 503, attempt: 1 }]);
  });

  it('sends a browser asking for a JSON twin to its part of the settings page; a program gets JSON', async () => {
    const get = (path: string, accept: string) =>
      t.app.fetch(new Request(`${ORIGIN}/app/settings/${path}`, { headers: { cookie: owner.cookie, accept } }));
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const [path, section] of [
      ['api-keys', '#api-keys'],
      ['webhooks', '#webhooks'],
      ['sso/domains', '#sso'],
      ['audit-log', '#audit-log'],
      [`projects/prj_${'0'.repeat(20)}/prompts`, ''],
    ]) {
      const redirected = await get(path!, browser);
      expect(redirected.status, path).toBe(303);
      expect(redirected.headers.get('location'), path).toBe(`/app/settings${section}`);
    }
    const program = await get('api-keys', 'application/json');
    expect(program.status).toBe(200);
    expect(Array.isArray((await json(program)).data)).toBe(true);
  });

  it('refuses a field a webhook or key change does not take (400 naming it), rather than using defaults', async () => {
    const url = 'https://hooks.example.com/misspelt';
    for (const [path, body, field] of [
      ['/app/settings/webhooks', { url, events: ['scan.completed'] }, 'events'],
      ['/app/settings/api-keys', { name: 'misspelt', scope: ['clients:read'] }, 'scope'],
      ['/app/settings/webhooks/replay', { event: 'evt_1' }, 'event'],
      ['/app/settings/webhooks/replay-failed', { since: '2026-01-01', until: '2026-02-01' }, 'until'],
    ] as const) {
      const refused = await call(t.app, owner, 'POST', path, body);
      expect(refused.status, path).toBe(400);
      expect((await json(refused)).error, path).toMatchObject({ code: 'invalid_parameter', param: field });
    }
    expect(await t.database.prisma.webhookEndpoint.count({ where: { url } })).toBe(0);
    expect(await t.database.prisma.apiKey.count({ where: { name: 'misspelt' } })).toBe(0);
  });

  it("calls a body field at fault invalid_parameter, whether its type or the command's rule refuses it", async () => {
    const create = (body: object) => call(t.app, owner, 'POST', '/app/settings/api-keys', body);
    const wrongType = await create({ name: 5 });
    expect(wrongType.status).toBe(400);
    expect((await json(wrongType)).error).toMatchObject({ code: 'invalid_parameter', param: 'name' });
    const past = await create({ name: 'late', expiresAt: '2020-01-01' });
    expect(past.status).toBe(400);
    expect((await json(past)).error).toMatchObject({
      code: 'invalid_parameter',
      message: 'expiry must be in the future',
    });
    const unreadable = await t.app.fetch(
      new Request(`${ORIGIN}/app/settings/api-keys`, {
        method: 'POST',
        headers: {
          cookie: owner.cookie,
          origin: ORIGIN,
          'x-csrf-token': owner.csrf,
          'content-type': 'application/json',
        },
        body: '["not", "an object"]',
      }),
    );
    expect((await json(unreadable)).error.code).toBe('invalid_body');
  });
});
