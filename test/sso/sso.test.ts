// Single sign-on against a real OpenID provider (oidc-provider on loopback) and a real DNS
// server (dns2 on loopback): domain verification, joining as member, and every attack case
// the ID-token validation must refuse. The "browser" here follows redirects with a cookie jar.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import dns2 from 'dns2';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt } from 'jose';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { listen } from '../support/listen.js';
import { freePort } from '../support/global-setup.js';
import { call, personWithPassword, signIn } from '../support/web.js';
import { chromiumAvailable, launchChromium } from '../support/browser.js';

const CLIENT_ID = 'signalboard';
const CLIENT_SECRET = 'client-secret-for-tests-0123456789';

interface Account {
  email: string;
  email_verified: boolean;
  name: string;
}

let t: TestApp;
let app: { baseUrl: string; close(): Promise<void> };
let idp: { baseUrl: string; close(): Promise<void> };
let dnsServer: ReturnType<typeof dns2.createServer>;
const txt = new Map<string, string>();
const accounts = new Map<string, Account>();
/** Who signs in at the provider's login prompt next. */
let nextAccount = 'alice';
/** When set, the provider's token response carries this ID token instead of its own. */
let tamper: ((claims: Record<string, unknown>) => Promise<string>) | null = null;
let privateKey: CryptoKey;

async function startProvider(issuerPort: number, redirectUri: string) {
  const keys = await generateKeyPair('RS256', { extractable: true });
  privateKey = keys.privateKey as CryptoKey;
  const privateJwk = { ...(await exportJWK(keys.privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const issuer = `http://127.0.0.1:${issuerPort}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [privateJwk as never] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, ...accounts.get(sub)! }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The ID token carries the requested claims itself (not only the userinfo endpoint).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-cookie-key-0123456789'] },
  });
  const callback = provider.callback();
  const server = http.createServer(async (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      // The provider's login and consent prompts, answered as the person `nextAccount` would.
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login')
        return provider.interactionFinished(
          req,
          res,
          { login: { accountId: nextAccount } },
          { mergeWithLastSubmission: false },
        );
      const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: CLIENT_ID });
      grant.addOIDCScope('openid email profile');
      return provider.interactionFinished(
        req,
        res,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
    }
    if (req.url?.startsWith('/token') && tamper) {
      const rewrite = tamper;
      const end = res.end.bind(res);
      (res as unknown as { end: (chunk?: unknown) => void }).end = (chunk?: unknown) => {
        const body = JSON.parse(String(chunk)) as { id_token?: string };
        void rewrite(decodeJwt(body.id_token!)).then((idToken) => {
          const text = JSON.stringify({ ...body, id_token: idToken });
          res.setHeader('content-length', Buffer.byteLength(text));
          end(text);
        });
      };
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(issuerPort, '127.0.0.1', resolve));
  return {
    baseUrl: issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser: follows redirects across the app and the provider, keeping cookies per origin. */
async function browse(url: string, options: { rewrite?: (url: URL) => URL; cookies?: Record<string, string> } = {}) {
  const jar = new Map<string, Map<string, string>>([
    [new URL(app.baseUrl).origin, new Map(Object.entries(options.cookies ?? {}))],
  ]);
  let current = new URL(url);
  for (let hop = 0; hop < 20; hop++) {
    if (options.rewrite && current.pathname === '/app/sso/callback') current = options.rewrite(current);
    const cookies = jar.get(current.origin) ?? new Map<string, string>();
    const response = await fetch(current, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair!.indexOf('=');
      cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    jar.set(current.origin, cookies);
    // The hand-off to the provider is a page that navigates on by its Refresh header, as a browser follows it.
    const refresh = /^0;\s*url=(.+)$/.exec(response.headers.get('refresh') ?? '')?.[1];
    const location = response.headers.get('location') ?? refresh;
    if (
      ((response.status >= 300 && response.status < 400) || refresh) &&
      location &&
      !(current.pathname === '/app/sso/callback')
    ) {
      current = new URL(location, current);
      continue;
    }
    return { response, url: current, session: cookies.get('sb_session') ?? null, body: await response.text() };
  }
  throw new Error('too many redirects');
}

const signInWithSso = (email: string, options: { rewrite?: (url: URL) => URL } = {}) =>
  browse(`${app.baseUrl}/app/sso/start?email=${encodeURIComponent(email)}`, options);

async function sessionData(cookie: string) {
  return json(await fetch(`${app.baseUrl}/app/session`, { headers: { cookie: `sb_session=${cookie}` } }));
}

let acme: Awaited<ReturnType<typeof createKeyedWorkspace>>;
let admin: { cookie: string; csrf: string };

beforeAll(async () => {
  const dnsPort = await freePort();
  dnsServer = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const value = txt.get(question!.name.toLowerCase());
      if (value)
        response.answers.push({
          name: question!.name,
          type: dns2.Packet.TYPE.TXT,
          class: dns2.Packet.CLASS.IN,
          ttl: 1,
          data: value,
        } as never);
      send(response);
    },
  });
  await dnsServer.listen({ udp: { port: dnsPort, address: '127.0.0.1' } });
  t = await createTestApp({
    OIDC_ALLOW_HTTP_ISSUERS: 'true',
    OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true',
    DNS_RESOLVER: `127.0.0.1:${dnsPort}`,
  });
  app = await listen(t.app);
  const issuerPort = await freePort();
  idp = await startProvider(issuerPort, `${app.baseUrl}/app/sso/callback`);

  acme = await createKeyedWorkspace(t.database);
  await personWithPassword(t.database, { email: acme.ownerEmail });
  const signedIn = await signIn(t.app, acme.ownerEmail);
  admin = signedIn;
  accounts.set('alice', { email: 'alice@acme.test', email_verified: true, name: 'Alice' });
  accounts.set('unverified', { email: 'uma@acme.test', email_verified: false, name: 'Uma' });
  accounts.set('outsider', { email: 'eve@elsewhere.test', email_verified: true, name: 'Eve' });
});
afterAll(async () => {
  await idp?.close();
  await app?.close();
  dnsServer?.close();
  await t?.close();
});

describe('domains', () => {
  it(
    'count only once their TXT record is seen; an unverified claim blocks nobody; a ' +
      'verified domain belongs to one workspace',
    async () => {
      const claim = async (auth: { cookie: string; csrf: string }, domain: string) =>
        json(await call(t.app, auth, 'POST', '/app/settings/sso/domains', { domain }));
      // Another workspace claims acme.test first and never verifies it.
      const squatter = await createKeyedWorkspace(t.database);
      await personWithPassword(t.database, { email: squatter.ownerEmail });
      const squatterAuth = await signIn(t.app, squatter.ownerEmail);
      const squatted = (await claim(squatterAuth, 'acme.test')).data;

      const claimed = (await claim(admin, 'ACME.test.')).data;
      expect(claimed).toMatchObject({
        domain: 'acme.test',
        verified: false,
        txtName: '_signalboard-challenge.acme.test',
        txtValue: expect.stringMatching(/^signalboard-verification=/),
      });
      const notYet = await call(t.app, admin, 'POST', `/app/settings/sso/domains/${claimed.id}/verify`, {});
      expect(notYet.status).toBe(409);
      expect((await json(notYet)).error.message).toMatch(/no TXT record at _signalboard-challenge.acme.test/);
      // Someone else's token in the record does not verify this workspace.
      txt.set('_signalboard-challenge.acme.test', squatted.txtValue);
      expect((await call(t.app, admin, 'POST', `/app/settings/sso/domains/${claimed.id}/verify`, {})).status).toBe(409);

      txt.set('_signalboard-challenge.acme.test', claimed.txtValue);
      expect(
        (await json(await call(t.app, admin, 'POST', `/app/settings/sso/domains/${claimed.id}/verify`, {}))).data,
      ).toMatchObject({ verified: true });
      // Now the squatter cannot verify it, even with the right record for them.
      txt.set('_signalboard-challenge.acme.test', squatted.txtValue);
      const late = await call(t.app, squatterAuth, 'POST', `/app/settings/sso/domains/${squatted.id}/verify`, {});
      expect(late.status).toBe(409);
      expect((await json(late)).error.message).toMatch(/already verified by another workspace/);
      expect((await call(t.app, admin, 'POST', '/app/settings/sso/domains', { domain: 'outlook.com' })).status).toBe(
        400,
      );
    },
  );
});

describe('signing in with the company identity provider', () => {
  beforeAll(async () => {
    const saved = await call(t.app, admin, 'POST', '/app/settings/sso', {
      issuer: idp.baseUrl,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });
    expect(saved.status).toBe(200);
  });

  it(
    'a colleague with a verified address of a verified domain ' + 'joins as member and lands in the workspace',
    async () => {
      nextAccount = 'alice';
      const result = await signInWithSso('alice@acme.test');
      expect(result.response.status).toBe(303);
      expect(result.response.headers.get('location')).toBe('/app/settings');
      const session = await sessionData(result.session!);
      expect(session.data).toMatchObject({
        user: { email: 'alice@acme.test', name: 'Alice' },
        workspace: { slug: acme.workspace.slug },
        role: 'member',
      });
      const audit = await t.database.prisma.auditLogEntry.findFirst({
        where: { workspaceId: acme.workspace.id, action: 'member.joined_via_sso' },
      });
      expect(audit?.details).toEqual({ email: 'alice@acme.test' });
      // The second time: the same membership, no new one.
      const again = await signInWithSso('alice@acme.test');
      expect((await sessionData(again.session!)).data.role).toBe('member');
      expect(
        await t.database.prisma.membership.count({
          where: { workspaceId: acme.workspace.id, user: { email: 'alice@acme.test' } },
        }),
      ).toBe(1);
    },
  );

  it("returns to the page that sent the person to sign in (the form's `next`), never to another site", async () => {
    nextAccount = 'alice';
    const viaSso = (next: string) =>
      browse(`${app.baseUrl}/app/sso/start?email=alice%40acme.test&next=${encodeURIComponent(next)}`);
    const shared = '/app/reports/rep_x?preset=last_7_days&compare=previous_year';
    expect((await viaSso(shared)).response.headers.get('location')).toBe(shared);
    const hostile = ['//evil.example/app/', '/\\evil.example', 'https://evil.example/app/', '/%2F%2Fevil.example'];
    for (const next of hostile) {
      const result = await viaSso(next);
      expect(result.response.status, next).toBe(303);
      expect(result.response.headers.get('location'), next).toBe('/app/settings');
    }
  });

  it.skipIf(!chromiumAvailable)(
    "signs in from the sign-in page's form in a browser and lands on the shared page (form-action 'self' holds)",
    async () => {
      nextAccount = 'alice';
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const blocked: string[] = [];
        page.on('console', (message) => message.text().includes('form-action') && blocked.push(message.text()));
        const shared = '/app/reports/rep_x?datePreset=last_7_days';
        await page.goto(`${app.baseUrl}/app/login?next=${encodeURIComponent(shared)}`);
        await page.fill('input[name="email"][type="email"]:not([autocomplete])', 'alice@acme.test');
        await page.click("text=Continue with your company's sign-in");
        await page.waitForURL((url) => url.pathname === '/app/reports/rep_x', { timeout: 15_000 });
        expect(new URL(page.url()).search).toBe('?datePreset=last_7_days');
        expect(blocked).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );

  it('an SSO sign-in is audited in the workspace whose provider vouched for it, and only there', async () => {
    nextAccount = 'alice';
    await signInWithSso('alice@acme.test');
    const alice = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
    const entries = await t.database.prisma.auditLogEntry.findMany({
      where: { actor: alice.id, action: 'session.signed_in' },
    });
    expect(entries.length).toBeGreaterThan(0);
    expect(
      entries.every(
        (entry) => entry.workspaceId === acme.workspace.id && (entry.details as { method?: string }).method === 'sso',
      ),
    ).toBe(true);
  });

  it('nobody else: an unverified domain, an unverified address, an address outside the domain', async () => {
    const noDomain = await signInWithSso('bob@nowhere.test');
    expect(noDomain.response.status).toBe(403);
    expect(noDomain.body).toContain('no workspace has verified the domain of bob@nowhere.test');

    nextAccount = 'unverified';
    const unverified = await signInWithSso('uma@acme.test');
    expect(unverified.response.status).toBe(403);
    expect(unverified.body).toContain('has not verified uma@acme.test');
    expect(unverified.session).toBeNull();
    expect(await t.database.prisma.user.findUnique({ where: { email: 'uma@acme.test' } })).toBeNull();

    // Started with an acme address, but the provider vouches for another domain.
    nextAccount = 'outsider';
    const outsider = await signInWithSso('alice@acme.test');
    expect(outsider.response.status).toBe(403);
    expect(outsider.body).toContain('elsewhere.test is not a verified domain of this workspace');
  });

  it('refuses a tampered state', async () => {
    nextAccount = 'alice';
    const result = await signInWithSso('alice@acme.test', {
      rewrite: (url) => {
        const tampered = new URL(url);
        tampered.searchParams.set('state', 'forged-state');
        return tampered;
      },
    });
    expect(result.response.status).toBe(403);
    expect(result.body).toMatch(/did not validate/);
    expect(result.session).toBeNull();
  });

  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey);
  const now = () => Math.floor(Date.now() / 1000);
  for (const [name, forge] of [
    ['a wrong nonce', (claims: Record<string, unknown>) => sign({ ...claims, nonce: 'not-the-nonce' })],
    [
      'an expired ID token',
      (claims: Record<string, unknown>) => sign({ ...claims, iat: now() - 7200, exp: now() - 3600 }),
    ],
    [
      'an ID token issued an hour ahead of the clock',
      (claims: Record<string, unknown>) => sign({ ...claims, iat: now() + 3600, exp: now() + 7200 }),
    ],
    ['a wrong audience', (claims: Record<string, unknown>) => sign({ ...claims, aud: 'some-other-client' })],
    ['a wrong issuer', (claims: Record<string, unknown>) => sign({ ...claims, iss: 'http://evil.example' })],
    [
      'alg: none',
      async (claims: Record<string, unknown>) =>
        `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.` +
        `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
    ],
    [
      'a signature by another key',
      async (claims: Record<string, unknown>) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
          .sign((await generateKeyPair('RS256')).privateKey),
    ],
  ] as const) {
    it(`refuses ${name}`, async () => {
      nextAccount = 'alice';
      tamper = forge;
      try {
        const result = await signInWithSso('alice@acme.test');
        expect(result.response.status).toBe(403);
        expect(result.body).toMatch(/did not validate/);
        expect(result.session).toBeNull();
      } finally {
        tamper = null;
      }
    });
  }

  it(
    'the control case: the same re-signing with untouched claims is accepted (so the ' +
      'refusals above are about the claims)',
    async () => {
      nextAccount = 'alice';
      tamper = (claims) => sign(claims);
      try {
        const result = await signInWithSso('alice@acme.test');
        expect(result.response.status).toBe(303);
        expect(result.session).not.toBeNull();
      } finally {
        tamper = null;
      }
    },
  );

  it('password sign-in stays available for the same person once they have a password', async () => {
    await personWithPassword(t.database, { email: 'alice@acme.test' });
    const auth = await signIn(t.app, 'alice@acme.test');
    expect((await call(t.app, auth, 'GET', '/app/session')).status).toBe(200);
  });

  it('a callback without a started flow is refused', async () => {
    const response = await fetch(`${app.baseUrl}/app/sso/callback?code=x&state=y`, {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('not started here or has expired');
  });
});

describe('identity binding (issuer, subject), never an email match', () => {
  it(
    'an admin of one workspace cannot take over a person of another through their own ' +
      "provider asserting that person's email",
    async () => {
      // The victim belongs to another workspace and has an acme.test address (a contractor, say).
      const other = await createKeyedWorkspace(t.database);
      const victim = await personWithPassword(t.database, {
        email: 'victim@acme.test',
        workspaceId: other.workspace.id,
        role: 'owner',
      });
      // acme's provider (controlled by acme's admins) vouches for the victim's address under a subject of its choosing.
      accounts.set('forged-victim', { email: 'victim@acme.test', email_verified: true, name: 'Not the victim' });
      nextAccount = 'forged-victim';
      const result = await signInWithSso('victim@acme.test');
      expect(result.response.status).toBe(403);
      expect(result.body).toContain('an account with victim@acme.test already exists');
      expect(result.session).toBeNull();
      // Nor under the same address written otherwise (cased, with the trailing dot DNS allows): no look-alike account.
      for (const written of ['Victim@ACME.test.', 'VİCTİM@acme.test', 'víctim@acme.test']) {
        accounts.set('forged-look-alike', { email: written, email_verified: true, name: 'Not the victim' });
        nextAccount = 'forged-look-alike';
        const lookAlike = await signInWithSso('victim@acme.test');
        expect(lookAlike.response.status, written).toBe(403);
        expect(lookAlike.body, written).toContain('already exists');
      }
      // An address whose domain has an empty label is none.
      accounts.set('forged-look-alike', { email: 'victim@acme.test..', email_verified: true, name: 'Not the victim' });
      const malformed = await signInWithSso('victim@acme.test');
      expect(malformed.response.status).toBe(403);
      expect(malformed.body).toContain('did not share an email address');
      expect(await t.database.prisma.user.count({ where: { email: { startsWith: 'victim@acme.test' } } })).toBe(1);
      expect(await t.database.prisma.userIdentity.count({ where: { userId: victim.id } })).toBe(0);
      expect(await t.database.prisma.membership.count({ where: { userId: victim.id } })).toBe(1);
      expect(await t.database.prisma.session.count({ where: { userId: victim.id } })).toBe(0);
    },
  );

  it(
    'an existing member links once: by signing in with the password and linking, or ' + "by an owner's approval",
    async () => {
      const carol = await personWithPassword(t.database, { email: 'carol@acme.test', workspaceId: acme.workspace.id });
      accounts.set('carol-sub', { email: 'carol@acme.test', email_verified: true, name: 'Carol' });
      nextAccount = 'carol-sub';
      expect((await signInWithSso('carol@acme.test')).response.status).toBe(403);

      // Self-link: signed in with the password, "link company sign-in" runs the provider's flow for her own address.
      const auth = await signIn(t.app, 'carol@acme.test');
      const linkStart = await fetch(`${app.baseUrl}/app/sso/link`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: auth.cookie,
          origin: app.baseUrl,
          'x-csrf-token': auth.csrf,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      expect(linkStart.status).toBe(200);
      const flowCookie = linkStart.headers
        .getSetCookie()
        .find((header) => header.startsWith('sb_sso='))!
        .split(';')[0]!;
      const toProvider = /^0; url=(.+)$/.exec(linkStart.headers.get('refresh')!)![1]!;
      const linked = await browse(toProvider, { cookies: { sb_sso: flowCookie.slice('sb_sso='.length) } });
      expect(linked.response.status).toBe(303);
      expect(await t.database.prisma.userIdentity.count({ where: { userId: carol.id } })).toBe(1);
      expect((await sessionData((await signInWithSso('carol@acme.test')).session!)).data.user.email).toBe(
        'carol@acme.test',
      );

      // Owner approval for another member.
      const dave = await personWithPassword(t.database, { email: 'dave@acme.test', workspaceId: acme.workspace.id });
      accounts.set('dave-sub', { email: 'dave@acme.test', email_verified: true, name: 'Dave' });
      nextAccount = 'dave-sub';
      expect((await signInWithSso('dave@acme.test')).response.status).toBe(403);
      const approved = await call(t.app, admin, 'POST', '/app/settings/sso/link-approvals', {
        email: 'dave@acme.test',
      });
      expect(approved.status).toBe(200);
      const signedIn = await signInWithSso('dave@acme.test');
      expect(signedIn.response.status).toBe(303);
      expect(await t.database.prisma.userIdentity.count({ where: { userId: dave.id } })).toBe(1);
      // An admin (not an owner) cannot approve links, and nobody can for a non-member.
      const adminOnly = await personWithPassword(t.database, {
        email: `admin-${Date.now()}@example.test`,
        workspaceId: acme.workspace.id,
        role: 'admin',
      });
      expect(
        (
          await call(t.app, await signIn(t.app, adminOnly.email), 'POST', '/app/settings/sso/link-approvals', {
            email: 'carol@acme.test',
          })
        ).status,
      ).toBe(403);
      expect(
        (await call(t.app, admin, 'POST', '/app/settings/sso/link-approvals', { email: 'victim@acme.test' })).status,
      ).toBe(404);
    },
  );

  it(
    "a session from a workspace's provider stays in that workspace, whatever other " + 'memberships the account has',
    async () => {
      const elsewhere = await createKeyedWorkspace(t.database);
      const alice = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
      await t.database.prisma.membership.create({
        data: { id: `mem_${Date.now()}alice`, workspaceId: elsewhere.workspace.id, userId: alice.id, role: 'owner' },
      });
      nextAccount = 'alice';
      const signed = await signInWithSso('alice@acme.test');
      const cookie = `sb_session=${signed.session}`;
      const session = await sessionData(signed.session!);
      expect(session.data.workspaces.map((workspace: { slug: string }) => workspace.slug)).toEqual([
        acme.workspace.slug,
      ]);
      const switched = await fetch(`${app.baseUrl}/app/session/workspace`, {
        method: 'POST',
        headers: {
          cookie,
          origin: app.baseUrl,
          'x-csrf-token': session.data.csrfToken,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ workspace: elsewhere.workspace.slug }),
      });
      expect(switched.status).toBe(404);
      expect((await sessionData(signed.session!)).data.workspace.slug).toBe(acme.workspace.slug);
    },
  );

  it(
    "a new issuer unlinks the workspace's identities and ends their SSO sessions; a " +
      'new host needs the domains verified again',
    async () => {
      nextAccount = 'alice';
      const before = await signInWithSso('alice@acme.test');
      expect(
        (await fetch(`${app.baseUrl}/app/session`, { headers: { cookie: `sb_session=${before.session}` } })).status,
      ).toBe(200);
      const sameHost = `${idp.baseUrl}/`;
      expect(
        (await call(t.app, admin, 'POST', '/app/settings/sso', { issuer: sameHost, clientId: CLIENT_ID })).status,
      ).toBe(200);
      expect(await t.database.prisma.userIdentity.count({ where: { workspaceId: acme.workspace.id } })).toBe(0);
      expect(
        (await fetch(`${app.baseUrl}/app/session`, { headers: { cookie: `sb_session=${before.session}` } })).status,
      ).toBe(401);
      expect(
        await t.database.prisma.ssoDomain.count({ where: { workspaceId: acme.workspace.id, verifiedAt: null } }),
      ).toBe(0);
      expect(
        (
          await call(t.app, admin, 'POST', '/app/settings/sso', {
            issuer: idp.baseUrl.replace('127.0.0.1', 'localhost'),
            clientId: CLIENT_ID,
          })
        ).status,
      ).toBe(200);
      expect(
        await t.database.prisma.ssoDomain.count({
          where: { workspaceId: acme.workspace.id, verifiedAt: { not: null } },
        }),
      ).toBe(0);
      const audit = await t.database.prisma.auditLogEntry.findFirst({
        where: { workspaceId: acme.workspace.id, action: 'sso_connection.set' },
        orderBy: { createdAt: 'desc' },
      });
      expect(audit?.details).toMatchObject({ identitiesUnlinked: true, domainsNeedVerification: true });
    },
  );
});

describe('identity providers behind private addresses', () => {
  it('are refused at save time, and a stored one is never fetched: a generic error, no request made', async () => {
    const strict = await createTestApp({ OIDC_ALLOW_HTTP_ISSUERS: 'true' }, { url: t.url });
    let requests = 0;
    const trap = http.createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const port = (trap.address() as { port: number }).port;
    try {
      const workspace = await createKeyedWorkspace(t.database);
      await personWithPassword(t.database, { email: workspace.ownerEmail });
      const owner = await signIn(strict.app, workspace.ownerEmail);
      for (const issuer of [
        'http://169.254.169.254',
        `http://127.0.0.1:${port}`,
        `http://[::ffff:127.0.0.1]:${port}`,
        `http://[::127.0.0.1]:${port}`,
      ]) {
        const saved = await call(strict.app, owner, 'POST', '/app/settings/sso', {
          issuer,
          clientId: 'x',
          clientSecret: 'y',
        });
        expect(saved.status, issuer).toBe(400);
        expect((await json(saved)).error.message).toMatch(/public address/);
      }
      // Stored behind the settings' back (say, before this guard existed): discovery is still refused.
      const domain = `trap-${Date.now()}.test`;
      await t.database.pool.query(
        'INSERT INTO sso_connections (workspace_id, issuer, client_id, client_secret) VALUES ($1, $2, $3, $4)',
        [
          workspace.workspace.id,
          `http://127.0.0.1:${port}`,
          'x',
          strict.box.seal('y', `sso_connection:${workspace.workspace.id}:client_secret`),
        ],
      );
      await t.database.pool.query(
        `INSERT INTO sso_domains (id, workspace_id, domain, verification_token, verified_at)
         VALUES ($1, $2, $3, 'x', now())`,
        [`dom_${Date.now()}`, workspace.workspace.id, domain],
      );
      const started = await strict.app.fetch(new Request(`http://test.local/app/sso/start?email=someone@${domain}`));
      expect(started.status).toBe(503);
      const body = await json(started);
      expect(body.error.message).toBe(
        'The identity provider could not be reached. Try again later, or sign in with your password.',
      );
      expect(JSON.stringify(body)).not.toContain('127.0.0.1');
      expect(requests).toBe(0);
    } finally {
      trap.close();
      await strict.close();
    }
  });

  it('a sign-in started from another site or a sibling subdomain is refused (login CSRF)', async () => {
    const start = (site: string) =>
      t.app.fetch(
        new Request('http://test.local/app/sso/start?email=alice@acme.test', { headers: { 'sec-fetch-site': site } }),
      );
    for (const site of ['cross-site', 'same-site']) {
      const response = await start(site);
      expect(response.status, site).toBe(403);
      expect(await response.text(), site).toContain('Start single sign-on from the sign-in page');
    }
    // The sign-in page's own form, and an address typed or bookmarked, pass this check.
    for (const site of ['same-origin', 'none'])
      expect(await (await start(site)).text(), site).not.toContain('Start single sign-on from the sign-in page');
  });
});
