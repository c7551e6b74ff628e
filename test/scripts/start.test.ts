// `npm start` runs the compiled server, building it first when the build is missing or stale.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIsStale } from '../../scripts/start.mjs';
import { createTestDatabase } from '../support/database.js';
import { TEST_APP_SECRET_KEY } from '../support/secrets.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('the build stamp', () => {
  it('is stale when missing or older than any source, fresh otherwise', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stamp-'));
    const source = path.join(dir, 'src');
    const stamp = path.join(dir, '.build-stamp');
    writeFileSync(source, 'x');
    expect(buildIsStale([source], stamp)).toBe(true);
    writeFileSync(stamp, 'built');
    utimesSync(source, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(buildIsStale([source], stamp)).toBe(false);
    utimesSync(source, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(buildIsStale([source], stamp)).toBe(true);
  });
});

describe('npm start', () => {
  it('builds when needed and serves from dist/', async () => {
    // Without a build stamp the build is stale: start must build before it serves.
    rmSync(path.join(root, 'dist/.build-stamp'), { force: true });
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: await createTestDatabase(),
        PORT: '0',
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'info',
        APP_SECRET_KEY: TEST_APP_SECRET_KEY,
        METRICS_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), 60_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(Number(match[1]));
          }
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
        child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
      });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(output).toMatch(/Building dist\/ … done in [\d.]+ s/);
      expect(buildIsStale()).toBe(false);
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);

  it("is built by npm's postinstall when the sources and the compiler are there: the first start only starts", () => {
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.postinstall).toMatch(
      /scripts\/start\.mjs --prebuild/,
    );
    rmSync(path.join(root, 'dist/.build-stamp'), { force: true });
    const prebuild = spawnSync(process.execPath, ['scripts/start.mjs', '--prebuild'], { cwd: root, encoding: 'utf8' });
    expect(prebuild.status).toBe(0);
    expect(prebuild.stdout).toMatch(/Building dist\/ for npm start … done/);
    expect(buildIsStale()).toBe(false);
    // Built already: nothing to do.
    expect(
      spawnSync(process.execPath, ['scripts/start.mjs', '--prebuild'], { cwd: root, encoding: 'utf8' }).stdout,
    ).toBe('');
  }, 90_000);
});
