// Trusted operations: the server's manifest is exactly what `npm run codegen` gives the web
// app, and in production only API-key callers may send query text.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTrustedOperations } from '../../src/graphql/trusted-operations.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { TEST_APP_SECRET_KEY } from '../support/secrets.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('the trusted-operations manifest', () => {
  it('equals the persisted-documents.json codegen writes for the web app', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'codegen-'));
    try {
      // The project's codegen.ts, with its output redirected to a scratch directory.
      const config = path.join(out, 'codegen.cjs');
      writeFileSync(
        config,
        `const { default: c } = require(${JSON.stringify(path.join(root, 'codegen.ts'))});
         module.exports = { ...c, generates: { ${JSON.stringify(out + '/')}: c.generates['graphql/generated/'] } };`,
      );
      execFileSync(path.join(root, 'node_modules/.bin/graphql-codegen'), ['--config', config, '--silent'], {
        cwd: root,
        stdio: 'pipe',
      });
      const generated = JSON.parse(readFileSync(path.join(out, 'persisted-documents.json'), 'utf8'));
      const manifest = loadTrustedOperations();
      expect(Object.keys(generated).length).toBeGreaterThanOrEqual(9);
      expect(Object.fromEntries(manifest)).toEqual(generated);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('in production', () => {
  let t: TestApp;
  let key: string;
  const clientPageHash = [...loadTrustedOperations()].find(([, text]) => text.startsWith('query ClientPage'))?.[0];
  beforeAll(async () => {
    t = await createTestApp({
      NODE_ENV: 'production',
      APP_SECRET_KEY: TEST_APP_SECRET_KEY,
      PUBLIC_BASE_URL: 'http://test.local',
    });
    key = (await createKeyedWorkspace(t.database)).key.secret;
  });
  afterAll(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    );
  const persisted = (hash: string, variables = {}) => ({
    variables,
    extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
  });

  it("refuses query text from a caller without an API key (the web app's session callers)", async () => {
    const body = await json(await post({ query: '{ clients { meta { total } } }' }));
    expect(body.errors[0].message).toBe('PersistedQueryOnly');
    expect(body.data).toBeUndefined();
  });

  it('lets such a caller name a trusted operation, which then goes on to authentication', async () => {
    const response = await post(persisted(clientPageHash!, { id: 'cli_00000000000000000000' }));
    const body = await json(response);
    expect(body.errors[0].extensions.code).toBe('unauthenticated');
  });

  it('refuses an unknown operation id', async () => {
    const body = await json(await post(persisted('0'.repeat(64))));
    expect(body.errors[0].message).toBe('PersistedQueryNotFound');
  });

  it('still runs any read query, and trusted operations, for an API key', async () => {
    const authorization = { authorization: `Bearer ${key}` };
    expect(await json(await post({ query: '{ clients { meta { total } } }' }, authorization))).toEqual({
      data: { clients: { meta: { total: 0 } } },
    });
    expect(
      await json(await post(persisted(clientPageHash!, { id: 'cli_00000000000000000000' }), authorization)),
    ).toEqual({ data: { node: null } });
  });
});
