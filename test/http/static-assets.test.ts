// The files pages load (GraphiQL's, Scalar's, the views' script and style sheet): each page names
// them by content-hashed names, each answers immutable and compressed as the client accepts, and
// the compressed bytes are the file's bytes.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { seededOwner, signIn } from '../support/web.js';
import { createAssetShelf, IMMUTABLE_CACHE_CONTROL, logicalName, staticAsset } from '../../src/http/static-assets.js';

describe('content-hashed names', () => {
  it('change when the content changes and only then', () => {
    const a = staticAsset('graphiql.js', { type: 'text/javascript', body: 'console.log(1)' });
    const same = staticAsset('graphiql.js', {
      type: 'text/javascript',
      body: new TextEncoder().encode('console.log(1)'),
    });
    const changed = staticAsset('graphiql.js', { type: 'text/javascript', body: 'console.log(2)' });
    expect(a.fileName).toMatch(/^graphiql\.[A-Za-z0-9_-]{12}\.js$/);
    expect(same.fileName).toBe(a.fileName);
    expect(changed.fileName).not.toBe(a.fileName);
    expect(logicalName(a.fileName)).toBe('graphiql.js');
    expect(logicalName(staticAsset('json.worker.js', { type: 'text/javascript', body: 'x' }).fileName)).toBe(
      'json.worker.js',
    );
    expect(logicalName('graphiql.js')).toBeNull();
  });

  it('a shelf serves the current name only: an old or made-up hash is not found', async () => {
    let version = 1;
    const shelf = () =>
      createAssetShelf('/a/', { 'v.js': async () => ({ type: 'text/javascript', body: `v${version}` }) });
    const first = shelf();
    const firstHref = await first.href('v.js');
    version = 2;
    const second = shelf();
    const secondHref = await second.href('v.js');
    expect(secondHref).not.toBe(firstHref);
    const get = new Request('http://test.local/');
    expect(await second.serve(get, firstHref.slice(3))).toBeNull();
    expect(await (await second.serve(get, secondHref.slice(3)))!.text()).toBe('v2');
    expect(await second.serve(get, 'v.js')).toBeNull();
    expect(await second.serve(get, 'other.AAAAAAAAAAAA.js')).toBeNull();
  });
});

let t: TestApp;
let cookie = '';
let reportId = '';
beforeAll(async () => {
  t = await createTestApp();
  const owner = await seededOwner(t);
  reportId = owner.reportId;
  cookie = (await signIn(t.app, owner.ownerEmail)).cookie;
}, 120_000);
afterAll(() => t?.close());

/** The local files a page names in src= and href= (not links to other pages). */
async function assetsOf(path: string, headers: Record<string, string> = {}): Promise<string[]> {
  const page = await t.get(path, undefined, { headers: { accept: 'text/html', ...headers } });
  expect(page.status, path).toBe(200);
  const text = await page.text();
  return [...text.matchAll(/(?:src|href)="(\/[^"]+)"/g)]
    .map((match) => match[1]!)
    .filter((href) => /\.(js|css|ico)$/.test(href));
}

async function expectServedWell(path: string) {
  const identity = Buffer.from(await (await t.get(path)).arrayBuffer());
  expect(identity.byteLength, path).toBeGreaterThan(0);
  for (const [coding, decompress] of [
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const) {
    const response = await t.get(path, undefined, {
      headers: { 'accept-encoding': coding === 'br' ? 'br, gzip' : 'gzip' },
    });
    expect(response.status, path).toBe(200);
    expect(response.headers.get('cache-control'), path).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(response.headers.get('vary'), path).toBe('Accept-Encoding');
    const body = Buffer.from(await response.arrayBuffer());
    // Tiny files (GraphiQL's boot script, its icon) are not worth a coding.
    if (identity.byteLength < 1024) continue;
    expect(response.headers.get('content-encoding'), path).toBe(coding);
    expect(body.byteLength, path).toBeLessThan(identity.byteLength);
    expect(decompress(body).equals(identity), path).toBe(true);
  }
}

describe('the pages name hashed, immutable, compressed files', () => {
  it('GraphiQL: its script, style sheet, icon, boot script and the workers the boot script names', async () => {
    const assets = await assetsOf('/graphql');
    expect(assets.map((href) => logicalName(href.slice(href.lastIndexOf('/') + 1))).sort()).toEqual([
      'boot.js',
      'favicon.ico',
      'graphiql.css',
      'graphiql.js',
    ]);
    const boot = await (await t.get(assets.find((href) => href.includes('/boot.'))!)).text();
    const workers = [...boot.matchAll(/"(\/graphql\/assets\/[^"]+\.worker\.[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(workers).toHaveLength(3);
    for (const path of [...assets, ...workers]) await expectServedWell(path);
    expect((await t.get('/graphql/assets/graphiql.js')).status).toBe(404);
  }, 60_000);

  it("the API reference: Scalar's bundle", async () => {
    const [scalar, ...rest] = await assetsOf('/api/v1/docs');
    expect(rest).toEqual([]);
    expect(scalar).toMatch(/^\/api\/v1\/docs\/scalar\.[A-Za-z0-9_-]{12}\.js$/);
    await expectServedWell(scalar!);
    expect((await t.get('/api/v1/docs/scalar.js')).status).toBe(404);
    expect((await t.get('/api/v1/docs/scalar.AAAAAAAAAAAA.js')).status).toBe(404);
  }, 60_000);

  it("a view page: the view's script and style sheet", async () => {
    const assets = await assetsOf(`/app/reports/${reportId}`, { cookie });
    expect(assets.map((href) => logicalName(href.slice(href.lastIndexOf('/') + 1))).sort()).toEqual([
      'report.css',
      'report.js',
    ]);
    for (const path of assets) await expectServedWell(path);
  }, 60_000);

  it('a file asked for again with its ETag is not sent again', async () => {
    const [scalar] = await assetsOf('/api/v1/docs');
    const etag = (await t.get(scalar!)).headers.get('etag')!;
    const again = await t.get(scalar!, undefined, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
  });
});
