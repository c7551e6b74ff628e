// Conditional requests and compression on v1, through the real handler: strong ETags, 304
// without a body that gives its rate-limit token back, brotli/gzip above the threshold.
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { newId } from '../../src/db/ids.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

// zlib as it is, with its compressions counted.
const calls = vi.hoisted(() => ({ brotliCompress: 0, brotliCompressSync: 0, gzip: 0, gzipSync: 0 }));
vi.mock('node:zlib', async (importOriginal) =>
  (await import('../support/counted-zlib.js')).countedZlib(await importOriginal(), calls),
);
const compressions = () => ({ br: calls.brotliCompress + calls.brotliCompressSync, gzip: calls.gzip + calls.gzipSync });

let t: TestApp;
beforeAll(async () => {
  // A slow refill, so that tokens only come back through refunds within a test.
  t = await createTestApp({ RATE_LIMIT_AGENCY: '100/0.01' });
});
afterAll(() => t.close());

const remaining = (response: Response) => Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]);

describe('ETag and If-None-Match', () => {
  it(
    'answers 304 without a body while the data is unchanged, ' + 'without spending tokens, and 200 once it changes',
    async () => {
      const { workspace, key } = await createKeyedWorkspace(t.database);
      await t.database.prisma.client.create({
        data: { id: newId('client'), workspaceId: workspace.id, name: 'First' },
      });
      const first = await t.get('/api/v1/clients', key.secret);
      const etag = first.headers.get('etag')!;
      expect(first.status).toBe(200);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      const before = remaining(first);

      for (let i = 0; i < 5; i++) {
        const again = await t.get('/api/v1/clients', key.secret, { headers: { 'if-none-match': etag } });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('x-request-id')).toBeTruthy();
        expect(remaining(again)).toBe(before);
      }
      // The same requests without a validator do spend.
      for (let i = 0; i < 5; i++) await t.get('/api/v1/clients', key.secret);
      expect(remaining(await t.get('/api/v1/clients', key.secret))).toBe(before - 6);

      await t.database.prisma.client.create({
        data: { id: newId('client'), workspaceId: workspace.id, name: 'Second' },
      });
      const changed = await t.get('/api/v1/clients', key.secret, { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect((await json(changed)).data).toHaveLength(2);
    },
  );

  it('never answers 304 to an error, and an unknown ETag gets the full body', async () => {
    const { key } = await createKeyedWorkspace(t.database);
    const missing = await t.get('/api/v1/reports/rep_00000000000000000000', key.secret, {
      headers: { 'if-none-match': '*' },
    });
    expect(missing.status).toBe(404);
    const other = await t.get('/api/v1/clients', key.secret, { headers: { 'if-none-match': '"nope"' } });
    expect(other.status).toBe(200);
  });

  it('covers the OpenAPI document too', async () => {
    const first = await t.get('/api/v1/openapi.json');
    const again = await t.get('/api/v1/openapi.json', undefined, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});

/** A new workspace with 20 days of demo data, its key, and the v1 path of one report's data (above 1 KiB). */
async function reportDataOfSeededWorkspace(datePreset: string) {
  const { workspace, key } = await createKeyedWorkspace(t.database);
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: workspace.id, days: 20, clients: 1 });
  const [report] = (await json(await t.get('/api/v1/reports', key.secret))).data;
  return { key, path: `/api/v1/reports/${report.id}/data?datePreset=${datePreset}` };
}

describe('kept definitions', () => {
  const lookups = async (result: 'hit' | 'miss') =>
    Number(
      new RegExp(`^signalboard_data_cache_lookups\\{result="${result}"\\} (\\d+)$`, 'm').exec(
        await t.app.metrics.text(),
      )![1],
    );

  it(
    "serves a report's definition from its kept body until the " +
      'report is edited or archived, and never to another workspace',
    async () => {
      const { workspace, key } = await createKeyedWorkspace(t.database);
      await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: workspace.id, days: 1, clients: 1 });
      const [report] = (await json(await t.get('/api/v1/reports', key.secret))).data;
      const path = `/api/v1/reports/${report.id}`;

      const first = await t.get(path, key.secret);
      const body = await first.text();
      const hits = await lookups('hit');
      const again = await t.get(path, key.secret);
      expect(await again.text()).toBe(body);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(await lookups('hit')).toBe(hits + 1);

      const stranger = await createKeyedWorkspace(t.database);
      expect((await t.get(path, stranger.key.secret)).status).toBe(404);

      await t.database.prisma.report.update({ where: { id: report.id }, data: { name: 'Renamed' } });
      const renamed = await t.get(path, key.secret, { headers: { 'if-none-match': first.headers.get('etag')! } });
      expect(renamed.status).toBe(200);
      expect((await json(renamed)).data.name).toBe('Renamed');

      await t.database.prisma.report.update({ where: { id: report.id }, data: { archivedAt: new Date() } });
      expect((await t.get(path, key.secret)).status).toBe(404);
    },
  );
});

describe('compression', () => {
  it('sends brotli or gzip as accepted above 1 KiB, identical once decoded, and plain JSON below it', async () => {
    const { key, path } = await reportDataOfSeededWorkspace('last_7_days');
    const plain = await t.get(path, key.secret);
    const text = await plain.text();
    expect(Buffer.byteLength(text)).toBeGreaterThan(1024);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');

    const br = await t.get(path, key.secret, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(Buffer.byteLength(text) / 3);
    expect((await promisify(brotliDecompress)(brBytes)).toString()).toBe(text);
    expect(br.headers.get('etag')).toBe(plain.headers.get('etag')!.replace(/"$/, '-br"'));

    const gz = await t.get(path, key.secret, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect((await promisify(gunzip)(Buffer.from(await gz.arrayBuffer()))).toString()).toBe(text);

    // The compressed variant's ETag revalidates as well.
    const revalidated = await t.get(path, key.secret, {
      headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);
    // The 304 names what the client holds, as the 200 it revalidates named it (RFC 9110 §15.4.5).
    expect(revalidated.headers.get('etag')).toBe(br.headers.get('etag'));

    const empty = await createKeyedWorkspace(t.database);
    const small = await t.get('/api/v1/clients', empty.key.secret, { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await json(small)).toEqual({ data: [], meta: { total: 0, truncated: false } });
  });
});

describe('compression of kept bodies', () => {
  it("compresses a cached body once per coding and counts its encodings in the cache's bytes", async () => {
    const { key, path } = await reportDataOfSeededWorkspace('last_30_days');
    const cacheBytes = async () => Number(/^signalboard_data_cache_bytes (\d+)$/m.exec(await t.app.metrics.text())![1]);
    const poll = async (coding: string) =>
      Buffer.from(await (await t.get(path, key.secret, { headers: { 'accept-encoding': coding } })).arrayBuffer());

    await poll('identity');
    const before = compressions();
    const bytesBefore = await cacheBytes();
    const br = await poll('br');
    for (let i = 0; i < 3; i++) expect(await poll('br')).toEqual(br);
    expect(compressions().br - before.br).toBe(1);
    expect(await cacheBytes()).toBe(bytesBefore + br.length);
    const gzip = await poll('gzip');
    expect(await poll('gzip')).toEqual(gzip);
    expect(compressions().gzip - before.gzip).toBe(1);
    expect(await cacheBytes()).toBe(bytesBefore + br.length + gzip.length);
  });
});
