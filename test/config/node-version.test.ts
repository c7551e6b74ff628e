import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE_MAJOR, nodeMajor } from '../../src/config/node-version.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('Node runtime', () => {
  it('runs the suite on Node 24 or newer (the node@24 the project installs)', () => {
    expect(nodeMajor()).toBeGreaterThanOrEqual(24);
  });

  it('reads the major version of a version string', () => {
    expect(nodeMajor('20.20.2')).toBe(20);
    expect(nodeMajor('24.21.0')).toBe(24);
  });

  // The machine's own Node is 20 here (and on CI); where it is, the server must refuse it plainly.
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find(
    (candidate) =>
      existsSync(candidate) &&
      nodeMajor(spawnSync(candidate, ['-p', 'process.versions.node']).stdout.toString().trim()) < MINIMUM_NODE_MAJOR,
  );
  it.skipIf(!systemNode)('refuses to start on a Node older than 22 with a clear message', () => {
    const result = spawnSync(systemNode!, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', SEED_DEMO: 'false' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`needs Node.js ${MINIMUM_NODE_MAJOR} or newer`);
    expect(result.stderr).not.toMatch(/Unsupported runtime|EBADENGINE|at .*\.ts:\d+/);
  });
});
