// The two v1 documents as served: each names the origin it was fetched from (PUBLIC_BASE_URL's
// whenever set; a forwarded host only behind a trusted proxy), with its own ETag; the Swagger 2.0
// twin describes the same operations and parameters; and every example the documents carry is a
// request the server accepts.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let plain: TestApp;
let key: string;

const fetchDocument = (t: TestApp, path: string, headers: Record<string, string> = {}) =>
  t.get(`/api/v1/${path}`, undefined, { headers });

beforeAll(async () => {
  plain = await createTestApp({ PORT: '4321' });
  key = (await createKeyedWorkspace(plain.database)).key.secret;
});
afterAll(() => plain.close());

describe('the server a document names', () => {
  it('is the origin the request came to, in both documents, each with its own ETag', async () => {
    const tunnel = await fetchDocument(plain, 'openapi.json', { host: 'api.tunnel.example:8443' });
    const local = await fetchDocument(plain, 'openapi.json', { host: '127.0.0.1:4321' });
    expect((await json(tunnel.clone())).servers).toEqual([
      { url: 'http://api.tunnel.example:8443/api/v1', description: 'This server' },
    ]);
    expect((await json(local.clone())).servers[0].url).toBe('http://127.0.0.1:4321/api/v1');
    expect(tunnel.headers.get('etag')).not.toBe(local.headers.get('etag'));
    const again = await fetchDocument(plain, 'openapi.json', {
      host: 'api.tunnel.example:8443',
      'if-none-match': tunnel.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
    expect(
      (
        await fetchDocument(plain, 'openapi.json', {
          host: '127.0.0.1:4321',
          'if-none-match': tunnel.headers.get('etag')!,
        })
      ).status,
    ).toBe(200);
    const swagger = await json(await fetchDocument(plain, 'swagger.json', { host: 'api.tunnel.example:8443' }));
    expect(swagger).toMatchObject({
      swagger: '2.0',
      host: 'api.tunnel.example:8443',
      basePath: '/api/v1',
      schemes: ['http'],
    });
  });

  it('takes X-Forwarded-Host and -Proto only behind a trusted proxy', async () => {
    const forwarded = { host: 'internal:8080', 'x-forwarded-host': 'api.example.org', 'x-forwarded-proto': 'https' };
    expect((await json(await fetchDocument(plain, 'openapi.json', forwarded))).servers[0].url).toBe(
      'http://internal:8080/api/v1',
    );
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      expect((await json(await fetchDocument(proxied, 'openapi.json', forwarded))).servers[0].url).toBe(
        'https://api.example.org/api/v1',
      );
      expect(await json(await fetchDocument(proxied, 'swagger.json', forwarded))).toMatchObject({
        host: 'api.example.org',
        schemes: ['https'],
      });
    } finally {
      await proxied.close();
    }
  });

  it('is PUBLIC_BASE_URL whenever it is set, whatever the Host says', async () => {
    const configured = await createTestApp({ PUBLIC_BASE_URL: 'https://api.example.test', TRUST_PROXY: 'true' });
    try {
      for (const headers of [
        { host: 'evil.example' },
        { host: 'api.example.test', 'x-forwarded-host': 'evil.example' },
      ] as Record<string, string>[]) {
        expect((await json(await fetchDocument(configured, 'openapi.json', headers))).servers[0].url).toBe(
          'https://api.example.test/api/v1',
        );
        expect(await json(await fetchDocument(configured, 'swagger.json', headers))).toMatchObject({
          host: 'api.example.test',
          schemes: ['https'],
        });
      }
    } finally {
      await configured.close();
    }
  });

  it('falls back to the service origin for a malformed Host, never reflecting it', async () => {
    for (const host of ['a b', 'evil.example/x', '[zz]']) {
      const document = await json(await fetchDocument(plain, 'openapi.json', { host }));
      expect(document.servers[0].url, host).toBe('http://localhost:4321/api/v1');
    }
  });
});

describe('examples', () => {
  it('are requests the server accepts: every operation with every example is no 400', async () => {
    const document = await json(await fetchDocument(plain, 'openapi.json'));
    for (const [template, { get: operation }] of Object.entries<any>(document.paths)) {
      const parameters: any[] = operation.parameters ?? [];
      const path = template.replace(
        /\{(\w+)\}/g,
        (_match, name: string) => parameters.find((parameter) => parameter.name === name).schema.examples[0],
      );
      const query = new URLSearchParams(
        parameters
          .filter((parameter) => parameter.in === 'query' && parameter.schema.examples)
          .map((parameter) => [parameter.name, String(parameter.schema.examples[0])]),
      );
      const response = await plain.get(`/api/v1${path}?${query}`, key);
      // Invented ids are well-formed: the parameters pass (checked first), the resource is unknown.
      expect([200, 404], `${operation.operationId}: ${await response.clone().text()}`).toContain(response.status);
      await response.body?.cancel();
    }
  });
});

describe('documents kept per origin', () => {
  it('are built once per origin and kind, and a flood of origins evicts instead of growing', async () => {
    const { createApiDocuments, DOCUMENT_ORIGINS_KEPT } = await import('../../src/rest/api-documents.js');
    const { schema } = await import('../../src/graphql/schema.js');
    const { v1Schema } = await import('../../src/rest/v1-schema.js');
    const documents = createApiDocuments(v1Schema(schema));
    const first = await documents.body('openapi', 'http://a.example');
    expect(await documents.body('openapi', 'http://a.example')).toBe(first);
    expect(await documents.body('swagger', 'http://a.example')).not.toBe(first);
    for (let index = 0; index < DOCUMENT_ORIGINS_KEPT * 2; index++)
      await documents.body('openapi', `http://flood-${index}.example`);
    const rebuilt = await documents.body('openapi', 'http://a.example');
    expect(rebuilt).not.toBe(first);
    expect(rebuilt.etag).toBe(first.etag);
  });
});

describe('npm run cli -- openapi print', () => {
  it('prints either document as served at the origin given, without a server', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const print = async (...args: string[]) =>
      JSON.parse(
        (
          await promisify(execFile)(
            path.join(root, 'node_modules/.bin/tsx'),
            ['src/cli/index.ts', 'openapi', 'print', ...args],
            { cwd: root },
          )
        ).stdout,
      );
    const [openapi, swagger] = await Promise.all([
      print('--base-url', 'https://api.example.test'),
      print('--swagger', '--base-url', 'https://api.example.test'),
    ]);
    expect(openapi.servers[0].url).toBe('https://api.example.test/api/v1');
    expect(swagger).toMatchObject({ swagger: '2.0', host: 'api.example.test', schemes: ['https'] });
    expect(Object.keys(swagger.paths)).toEqual(Object.keys(openapi.paths));
  }, 60_000);
});
