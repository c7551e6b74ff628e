// Past its share of requests in flight, a workspace's requests wait their turn in a line of their
// own: a burst within the bucket is answered, a flood past the line is refused at once, a wait has
// a bound, a client that leaves its place frees it, and neither the workspace's people (web-app
// sessions) nor another workspace wait behind its API jobs. The shares are held by requests of one
// API key whose rate-limit take is held back (a gate in the store): in flight for as long as a
// test needs, with nothing timed. What waits is read from the app's own gauge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRateLimitStore, type RateLimitStore } from '../../src/auth/rate-limit-store.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { listen } from '../support/listen.js';
import { ORIGIN, personWithPassword, signIn } from '../support/web.js';

/** The in-memory store, except that takes of the gated credential wait until the gate opens. */
function gatedStore() {
  const store = memoryRateLimitStore();
  let gate: { credential: string; opened: Promise<void>; open(): void } | null = null;
  return {
    async take(buckets, nowMs, cost) {
      if (gate && buckets[0]!.key.endsWith(`:${gate.credential}`)) await gate.opened;
      return store.take(buckets, nowMs, cost);
    },
    close(credential: string) {
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      gate = { credential, opened, open };
    },
    open() {
      gate?.open();
      gate = null;
    },
  } satisfies RateLimitStore & Record<string, unknown>;
}

let url: string;
let a: { workspaceId: string; holder: { id: string; secret: string }; key: string; ownerEmail: string };
let b: { key: string };

beforeAll(async () => {
  url = await createTestDatabase();
  const setup = await createTestApp({}, { url });
  try {
    const keyed = await createKeyedWorkspace(setup.database, { plan: 'agency' });
    const actor = { email: keyed.ownerEmail };
    const holder = await createApiKey(setup.database.prisma, {
      workspaceId: keyed.workspace.id,
      name: 'holder',
      actor,
    });
    a = { workspaceId: keyed.workspace.id, holder, key: keyed.key.secret, ownerEmail: keyed.ownerEmail };
    b = { key: (await createKeyedWorkspace(setup.database, { plan: 'agency' })).key.secret };
    await personWithPassword(setup.database, { email: a.ownerEmail });
  } finally {
    await setup.close();
  }
});

/** An app on the shared database with these limits (2 requests in flight per lane unless said) and its gate. */
function useApp(env: Record<string, string>) {
  const state = {} as { t: TestApp; gate: ReturnType<typeof gatedStore> };
  beforeAll(async () => {
    state.gate = gatedStore();
    state.t = await createTestApp({ WORKSPACE_MAX_CONCURRENT_REQUESTS: '2', ...env }, { url, store: state.gate });
  });
  afterAll(() => state.t?.close());
  return state;
}

/** The app's gauge of requests in a lane ('in_flight' or 'waiting'), over every workspace. */
async function gauge(t: TestApp, lane: 'automation' | 'people', state: 'in_flight' | 'waiting') {
  const series = `signalboard_workspace_requests{lane="${lane}",state="${state}"}`;
  const line = (await t.app.metrics.text()).split('\n').find((each) => each.startsWith(series));
  return Number(line?.split(' ')[1] ?? NaN);
}

const clients = (t: TestApp, key: string) => t.get('/api/v1/clients', key);

/** Two requests of A's holder key in flight until `release()`, which expects them answered 200. */
async function holdShares(s: { t: TestApp; gate: ReturnType<typeof gatedStore> }) {
  s.gate.close(a.holder.id);
  const held = [clients(s.t, a.holder.secret), clients(s.t, a.holder.secret)];
  await expect.poll(() => gauge(s.t, 'automation', 'in_flight')).toBe(2);
  return async () => {
    s.gate.open();
    expect((await Promise.all(held)).map((response) => response.status)).toEqual([200, 200]);
  };
}

async function statusesOf(pending: Promise<Response>[]) {
  return (await Promise.all(pending)).map((response) => response.status);
}

describe('a burst within the bucket (a line of 256, as by default)', () => {
  const s = useApp({ WORKSPACE_MAX_WAIT_MS: '60000' });

  it('answers 20 requests sent at once through the HTTP server, all 200, after waiting their turn', async () => {
    const served = await listen(s.t.app);
    try {
      const release = await holdShares(s);
      const send = () => fetch(`${served.baseUrl}/api/v1/clients`, { headers: { authorization: `Bearer ${a.key}` } });
      const burst = Array.from({ length: 20 }, send);
      await expect.poll(() => gauge(s.t, 'automation', 'waiting')).toBe(20);
      await release();
      expect(await statusesOf(burst)).toEqual(Array(20).fill(200));
    } finally {
      await served.close();
    }
  });
});

describe('the default limits: 8 in flight, 256 waiting', () => {
  // The wait bound is not what this measures: a loaded machine may take more than 10 s for 240.
  const s = useApp({ WORKSPACE_MAX_CONCURRENT_REQUESTS: '8', WORKSPACE_MAX_WAIT_MS: '60000' });

  it("answers a whole agency key's burst (240) sent at once", async () => {
    expect(await statusesOf(Array.from({ length: 240 }, () => clients(s.t, a.key)))).toEqual(Array(240).fill(200));
  });
});

describe('a line of 3 with a long wait', () => {
  const s = useApp({ WORKSPACE_MAX_WAITING_REQUESTS: '3', WORKSPACE_MAX_WAIT_MS: '60000' });

  /** A's lane full: two requests in flight and three waiting, until `release()`. */
  async function saturate() {
    const release = await holdShares(s);
    const waiting = [clients(s.t, a.key), clients(s.t, a.key), clients(s.t, a.key)];
    await expect.poll(() => gauge(s.t, 'automation', 'waiting')).toBe(3);
    return async () => {
      await release();
      expect(await statusesOf(waiting)).toEqual([200, 200, 200]);
    };
  }

  it('refuses a flood past the line at once with 429 and Retry-After, without waiting', async () => {
    const release = await saturate();
    // Answered while the shares are still held: they never waited for one.
    const flood = await Promise.all(Array.from({ length: 10 }, () => clients(s.t, a.key)));
    const answers = flood.map((response) => [response.status, response.headers.get('retry-after')]);
    expect(answers).toEqual(Array(10).fill([429, '1']));
    expect((await flood[0]!.json()).error).toMatchObject({
      code: 'rate_limited',
      message:
        'Too many requests at once for this workspace: 2 requests in flight and 3 waiting ' +
        '(its limit of concurrent requests); retry in 1 s.',
    });
    await release();
  });

  it("answers the workspace's people (a web-app session on /graphql) while its API jobs fill their lane", async () => {
    const release = await saturate();
    const { cookie } = await signIn(s.t.app, a.ownerEmail);
    const body = JSON.stringify({ query: '{ clients { data { id } } }' });
    const headers = { 'content-type': 'application/json', cookie };
    const page = await s.t.app.fetch(new Request(`${ORIGIN}/graphql`, { method: 'POST', headers, body }));
    expect(page.status).toBe(200);
    expect((await page.json()).errors).toBeUndefined();
    await release();
  });

  it('answers another workspace at once while this one fills its lane', async () => {
    const release = await saturate();
    expect((await clients(s.t, b.key)).status).toBe(200);
    await release();
  });

  it('gives the place of a client that went away while waiting to the next request', async () => {
    const served = await listen(s.t.app);
    try {
      const release = await holdShares(s);
      const gone = new AbortController();
      const headers = { authorization: `Bearer ${a.key}` };
      const leaving = fetch(`${served.baseUrl}/api/v1/clients`, { headers, signal: gone.signal }).catch(() => null);
      await expect.poll(() => gauge(s.t, 'automation', 'waiting')).toBe(1);
      const waiting = [clients(s.t, a.key), clients(s.t, a.key)];
      await expect.poll(() => gauge(s.t, 'automation', 'waiting')).toBe(3);
      expect((await clients(s.t, a.key)).status).toBe(429);
      gone.abort();
      await leaving;
      await expect.poll(() => gauge(s.t, 'automation', 'waiting')).toBe(2);
      waiting.push(clients(s.t, a.key));
      await expect.poll(() => gauge(s.t, 'automation', 'waiting')).toBe(3);
      await release();
      expect(await statusesOf(waiting)).toEqual([200, 200, 200]);
    } finally {
      await served.close();
    }
  });
});

describe('a wait bound of 1 ms', () => {
  const s = useApp({ WORKSPACE_MAX_WAIT_MS: '1', RATE_LIMIT_AGENCY: '240/0.001' });

  it('refuses a request whose wait ran out with 429 and Retry-After, and gives its token back', async () => {
    const release = await holdShares(s);
    const refused = await clients(s.t, a.key);
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
    expect((await refused.json()).error.message).toBe(
      'This request waited 0.001 s while this workspace had 2 requests in flight ' +
        '(its limit of concurrent requests); retry in 1 s.',
    );
    await release();
    // The key's bucket (240, next to no refill) lost only this request's token.
    expect((await clients(s.t, a.key)).headers.get('ratelimit')).toMatch(/^"burst";r=239;/);
  });
});
