// The settings page and its JSON twins through the real app: who may change what, CSRF,
// plans, and a key created here working on v1 until it is revoked here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { call, ORIGIN, personWithPassword, signIn } from '../support/web.js';
import { createProject } from '../support/projects.js';

let t: TestApp;
let agency: Awaited<ReturnType<typeof createKeyedWorkspace>>;
let admin: { cookie: string; csrf: string };
let member: { cookie: string; csrf: string };

const form = (
  auth: { cookie: string },
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  t.app.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: {
        cookie: auth.cookie,
        origin: ORIGIN,
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    }),
  );

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_HTTP: 'true' });
  agency = await createKeyedWorkspace(t.database);
  await personWithPassword(t.database, { email: agency.ownerEmail });
  const memberEmail = `member-${agency.workspace.slug}@example.test`;
  await personWithPassword(t.database, { email: memberEmail, workspaceId: agency.workspace.id, role: 'member' });
  admin = await signIn(t.app, agency.ownerEmail);
  member = await signIn(t.app, memberEmail);
});
afterAll(() => t.close());

describe('settings', () => {
  it(
    'send a signed-out browser to the sign-in page (and back after it) and a signed-out JSON client a ' + '401',
    async () => {
      const page = await t.app.fetch(new Request(`${ORIGIN}/app/settings`, { headers: { accept: 'text/html' } }));
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('/app/login?next=%2Fapp%2Fsettings');
      expect((await t.app.fetch(new Request(`${ORIGIN}/app/settings/api-keys`))).status).toBe(401);
    },
  );

  it(
    'an API key created here is shown once, works on v1, and fails on its next request after ' + 'revocation here',
    async () => {
      const created = await json(
        await call(t.app, admin, 'POST', '/app/settings/api-keys', { name: 'from settings', scopes: ['clients:read'] }),
      );
      expect(created.data).toMatchObject({
        name: 'from settings',
        scopes: ['clients:read'],
        secret: expect.stringMatching(/^sgb_live_/),
      });
      const listed = await call(t.app, admin, 'GET', '/app/settings/api-keys');
      const listedText = await listed.text();
      expect(listedText).not.toContain(created.data.secret.split('.')[1]);
      expect(JSON.parse(listedText).data.find((key: { id: string }) => key.id === created.data.id)).toMatchObject({
        name: 'from settings',
        revokedAt: null,
      });

      const v1 = () => t.get('/api/v1/clients', created.data.secret);
      expect((await v1()).status).toBe(200);
      expect((await call(t.app, admin, 'POST', `/app/settings/api-keys/${created.data.id}/revoke`, {})).status).toBe(
        200,
      );
      const refused = await v1();
      expect(refused.status).toBe(401);
      expect((await json(refused)).error.code).toBe('api_key_revoked');
    },
  );

  it(
    'GraphQL tells a signed-in member that admin-only fields are for owners and admins (forbidden), ' +
      'not a missing API-key scope',
    async () => {
      const body = await json(await call(t.app, member, 'POST', '/graphql', { query: '{ members { email } }' }));
      expect(body.errors[0]).toMatchObject({
        message: 'Only owners and admins of the workspace may read this.',
        extensions: { code: 'forbidden' },
      });
    },
  );

  it('members are refused the admin data /graphql refuses them, and every change (403 forbidden)', async () => {
    for (const path of ['api-keys', 'audit-log', 'webhooks', 'sso', 'sso/domains', 'mcp']) {
      const response = await call(t.app, member, 'GET', `/app/settings/${path}`);
      expect(response.status, path).toBe(403);
      expect((await json(response)).error, path).toMatchObject({
        code: 'forbidden',
        message: 'Only owners and admins of the workspace may read this.',
      });
      expect((await call(t.app, admin, 'GET', `/app/settings/${path}`)).status, path).toBe(200);
    }
    for (const [path, body] of [
      ['/app/settings/api-keys', { name: 'nope' }],
      ['/app/settings/webhooks', { url: 'https://hooks.example.com/x' }],
      ['/app/settings/mcp', { writeActions: true }],
      ['/app/settings/sso/domains', { domain: 'example.org' }],
      ['/app/settings/sso', { issuer: 'https://idp.example.com', clientId: 'x', clientSecret: 'y' }],
      ['/app/settings/webhooks/replay-failed', { since: '2026-01-01' }],
    ] as const) {
      const response = await call(t.app, member, 'POST', path, body);
      expect(response.status, path).toBe(403);
      expect((await json(response)).error.code, path).toBe('forbidden');
    }
  });

  it("a member's page holds their account and a line saying who manages the rest, no admin data", async () => {
    const key = await json(await call(t.app, admin, 'POST', '/app/settings/api-keys', { name: 'seen by admins' }));
    const pageOf = async (auth: { cookie: string }) =>
      (
        await t.app.fetch(
          new Request(`${ORIGIN}/app/settings`, { headers: { cookie: auth.cookie, accept: 'text/html' } }),
        )
      ).text();
    const page = await pageOf(member);
    expect(page).toContain('its owners and admins manage its API keys, webhooks, single sign-on');
    expect(page).toContain('action="/app/password"');
    for (const absent of ['seen by admins', key.data.id, 'id="api-keys"', 'id="audit-log"', 'id="webhooks"']) {
      expect(page, absent).not.toContain(absent);
    }
    for (const absent of ['id="sso"', 'id="mcp"', 'api_key.created']) expect(page, absent).not.toContain(absent);
    const owners = await pageOf(admin);
    expect(owners).toContain(key.data.id);
    expect(owners).toContain('id="audit-log"');
  });

  it(
    'refuse a cross-site form post, a form without the CSRF token, and JSON with a foreign Origin or ' +
      'without the token',
    async () => {
      const crossSite = await form(
        admin,
        '/app/settings/api-keys',
        { name: 'csrf', _csrf: admin.csrf },
        { origin: 'https://evil.example' },
      );
      expect(crossSite.status).toBe(403);
      expect(await crossSite.text()).toContain('Cross-site request refused');
      // Every header a browser sends must say this site, whichever of them it sends, as docs/sso.md has it.
      for (const headers of [
        { 'sec-fetch-site': 'none' } as Record<string, string>,
        { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
        { 'sec-fetch-site': 'same-origin', referer: 'https://evil.example/page' },
        { origin: 'null' },
      ]) {
        const refused = await form(admin, '/app/settings/api-keys', { name: 'csrf', _csrf: admin.csrf }, headers);
        expect(refused.status, JSON.stringify(headers)).toBe(403);
      }
      expect((await form(admin, '/app/settings/api-keys', { name: 'csrf' })).status).toBe(403);
      expect((await form(admin, '/app/settings/api-keys', { name: 'csrf', _csrf: 'forged' })).status).toBe(403);
      expect(
        (
          await call(
            t.app,
            admin,
            'POST',
            '/app/settings/api-keys',
            { name: 'csrf' },
            { origin: 'https://evil.example' },
          )
        ).status,
      ).toBe(403);
      expect(
        (await call(t.app, admin, 'POST', '/app/settings/api-keys', { name: 'csrf' }, { 'x-csrf-token': '' })).status,
      ).toBe(403);
      const keys = await json(await call(t.app, admin, 'GET', '/app/settings/api-keys'));
      expect(keys.data.some((key: { name: string }) => key.name === 'csrf')).toBe(false);
      // The page's own form, with its token, works and shows the secret once.
      const ok = await form(admin, '/app/settings/api-keys', {
        name: 'from the form',
        scopes: 'clients:read',
        _csrf: admin.csrf,
      });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/data-testid="secret">sgb_live_/);
    },
  );

  it(
    "webhooks: a description follows the create command's one rule (500 characters, trimmed), named in " + 'the 400',
    async () => {
      const create = (description: string) =>
        call(t.app, admin, 'POST', '/app/settings/webhooks', { url: 'https://hooks.example.com/rule', description });
      const refused = await create('x'.repeat(501));
      expect(refused.status).toBe(400);
      expect((await json(refused)).error).toMatchObject({ code: 'invalid_parameter', param: 'description' });
      const kept = await json(await create(`  ${'x'.repeat(500)}  `));
      expect(kept.data.description).toBe('x'.repeat(500));
    },
  );

  it(
    'webhooks: create (secret once), list without secrets, reveal, rotate, disable, attempts; the ' +
      'audit log names who did it',
    async () => {
      const created = await json(
        await call(t.app, admin, 'POST', '/app/settings/webhooks', {
          url: 'https://hooks.example.com/signalboard',
          eventTypes: ['signal.created'],
          description: 'ops',
        }),
      );
      expect(created.data).toMatchObject({
        url: 'https://hooks.example.com/signalboard',
        eventTypes: ['signal.created'],
        enabled: true,
        secret: expect.stringMatching(/^whsec_/),
      });
      const listed = await (await call(t.app, admin, 'GET', '/app/settings/webhooks')).text();
      expect(listed).not.toContain(created.data.secret);
      expect(
        (await json(await call(t.app, admin, 'POST', `/app/settings/webhooks/${created.data.id}/secret`, {}))).data
          .secret,
      ).toBe(created.data.secret);
      expect(
        (await json(await call(t.app, admin, 'POST', `/app/settings/webhooks/${created.data.id}/rotate-secret`, {})))
          .data.secret,
      ).not.toBe(created.data.secret);
      expect(
        (await json(await call(t.app, admin, 'POST', `/app/settings/webhooks/${created.data.id}/disable`, {}))).data
          .enabled,
      ).toBe(false);
      expect(
        (await json(await call(t.app, admin, 'GET', `/app/settings/webhooks/${created.data.id}/attempts`))).data,
      ).toEqual([]);
      const audit = await json(await call(t.app, admin, 'GET', '/app/settings/audit-log'));
      expect(
        audit.data
          .filter((entry: { target: string }) => entry.target === created.data.id)
          .map((entry: { action: string; actorEmail: string }) => [entry.action, entry.actorEmail]),
      ).toEqual([
        ['webhook_endpoint.disabled', agency.ownerEmail],
        ['webhook_endpoint.secret_rotated', agency.ownerEmail],
        ['webhook_endpoint.secret_revealed', agency.ownerEmail],
        ['webhook_endpoint.created', agency.ownerEmail],
      ]);
      // Another workspace's endpoint is not found from this one.
      const other = await createKeyedWorkspace(t.database);
      const theirs = await t.database.prisma.webhookEndpoint.create({
        data: {
          id: 'whe_00000000000000000001',
          workspaceId: other.workspace.id,
          url: 'https://x.example',
          eventTypes: ['scan.completed'],
          secret: 'v1:x:y:z',
        },
      });
      expect((await call(t.app, admin, 'POST', `/app/settings/webhooks/${theirs.id}/secret`, {})).status).toBe(404);
    },
  );

  it('plans below pro see why webhooks and single sign-on are unavailable, and are refused', async () => {
    const starter = await createKeyedWorkspace(t.database, { plan: 'starter' });
    await personWithPassword(t.database, { email: starter.ownerEmail });
    const auth = await signIn(t.app, starter.ownerEmail);
    const page = await (
      await t.app.fetch(
        new Request(`${ORIGIN}/app/settings`, { headers: { cookie: auth.cookie, accept: 'text/html' } }),
      )
    ).text();
    expect(page).toContain(
      'Webhooks are available on the Pro, Agency and Scale plans; this workspace is on <strong>Starter</strong>',
    );
    expect(page).toContain(
      'Single sign-on is available on the Pro, Agency and Scale plans; this workspace is on <strong>Starter</strong>',
    );
    const refused = await call(t.app, auth, 'POST', '/app/settings/webhooks', { url: 'https://hooks.example.com/x' });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.message).toMatch(
      /webhooks need the Pro, Agency or Scale plan; .* is on Starter/,
    );
  });

  it(
    'the MCP write switch and the SSO provider are saved; the client secret is sealed and never ' + 'returned',
    async () => {
      expect((await json(await call(t.app, admin, 'POST', '/app/settings/mcp', { writeActions: true }))).data).toEqual({
        writeActions: true,
      });
      expect((await json(await call(t.app, admin, 'GET', '/app/settings/mcp'))).data).toEqual({
        writeActions: true,
        connectedApps: [],
      });
      const saved = await call(t.app, admin, 'POST', '/app/settings/sso', {
        issuer: 'https://idp.example.com',
        clientId: 'signalboard',
        clientSecret: 'super-secret-value',
      });
      const text = await saved.text();
      expect(saved.status).toBe(200);
      expect(text).not.toContain('super-secret-value');
      const row = await t.database.prisma.ssoConnection.findUniqueOrThrow({
        where: { workspaceId: agency.workspace.id },
      });
      expect(row.clientSecret).toMatch(/^v1:/);
      expect(row.clientSecret).not.toContain('super-secret');
      expect(
        (
          await call(t.app, admin, 'POST', '/app/settings/sso', {
            issuer: 'http://idp.example.com',
            clientId: 'x',
            clientSecret: 'y',
          })
        ).status,
      ).toBe(400);
      const gmail = await call(t.app, admin, 'POST', '/app/settings/sso/domains', { domain: 'gmail.com' });
      expect(gmail.status).toBe(400);
      expect((await json(gmail)).error.message).toContain('public mail provider');
    },
  );

  it(
    "manage a project's prompts (one per line, commas kept) and domains; members are refused; another " +
      "workspace's project is not found",
    async () => {
      const project = await createProject(t.database, agency.workspace.id, {
        id: `prj_${'S'.repeat(20)}`,
        name: 'Settings',
        competitors: ['Globex'],
        models: ['chatgpt'],
        locales: ['en-US'],
      });
      const added = await json(
        await call(t.app, admin, 'POST', `/app/settings/projects/${project.id}/prompts`, {
          texts: 'Best CRM, honestly?\nCRM for agencies',
          topic: 'crm',
          tags: 'a,b',
        }),
      );
      expect(added.data.added.map((p: { text: string }) => p.text)).toEqual([
        'Best CRM, honestly?',
        'CRM for agencies',
      ]);
      const ids = added.data.added.map((p: { id: string }) => p.id);
      expect(
        (
          await json(
            await call(t.app, admin, 'POST', '/app/settings/prompts/update', { promptIds: ids, topic: 'sales' }),
          )
        ).data.map((p: { topic: string; tags: string[] }) => [p.topic, p.tags]),
      ).toEqual([
        ['sales', ['a', 'b']],
        ['sales', ['a', 'b']],
      ]);
      expect((await call(t.app, admin, 'POST', '/app/settings/prompts/archive', { promptIds: [ids[0]] })).status).toBe(
        200,
      );
      expect(
        (await json(await call(t.app, admin, 'GET', `/app/settings/projects/${project.id}/prompts`))).data.map(
          (p: { id: string }) => p.id,
        ),
      ).toEqual([ids[1]]);
      const domains = await json(
        await call(t.app, admin, 'POST', `/app/settings/projects/${project.id}/domains`, {
          domains: ['acme.com'],
          competitors: ['Globex=globex.com,globex.de'],
        }),
      );
      expect(domains.data).toMatchObject({
        domains: ['acme.com'],
        competitorDomains: [{ name: 'Globex', domains: ['globex.com', 'globex.de'] }],
      });
      expect((await call(t.app, member, 'POST', '/app/settings/prompts/restore', { promptIds: [ids[0]] })).status).toBe(
        403,
      );
      expect(
        (
          await call(t.app, admin, 'POST', `/app/settings/projects/${project.id}/domains`, {
            domains: ['acme.com'],
            competitors: ['no equals sign'],
          })
        ).status,
      ).toBe(400);
      const other = await createKeyedWorkspace(t.database);
      const theirs = await createProject(t.database, other.workspace.id, {
        id: `prj_${'T'.repeat(20)}`,
        name: 'Theirs',
        brand: 'B',
        competitors: [],
        models: ['chatgpt'],
        locales: ['en-US'],
      });
      expect((await call(t.app, admin, 'GET', `/app/settings/projects/${theirs.id}/prompts`)).status).toBe(404);
      expect(
        (await call(t.app, admin, 'POST', `/app/settings/projects/${theirs.id}/prompts`, { texts: ['x'] })).status,
      ).toBe(404);
    },
  );

  it('answer unknown paths and methods with the error envelope', async () => {
    expect((await call(t.app, admin, 'GET', '/app/settings/nope')).status).toBe(404);
    expect((await call(t.app, admin, 'GET', '/app/settings/mcp/')).status).toBe(404);
    expect((await call(t.app, admin, 'POST', '/app/settings/audit-log', {})).status).toBe(405);
    const malformed = await t.app.fetch(
      new Request(`${ORIGIN}/app/settings/api-keys`, {
        method: 'POST',
        headers: {
          cookie: admin.cookie,
          origin: ORIGIN,
          'x-csrf-token': admin.csrf,
          'content-type': 'application/json',
        },
        body: '{"name":',
      }),
    );
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error.code).toBe('invalid_body');
  });
});
