// The V8 settings the service applies to itself: a process that loads src/config/v8-flags.ts makes
// no pretenuring decisions where the same allocations without it do; both entry points load it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedAtStart } from '../support/import-graph.js';

const root = path.resolve(import.meta.dirname, '../..');

// Objects from one allocation site that all outlive a scavenge: V8's cue to pretenure the site.
const LONG_LIVED_ALLOCATIONS = `
  const keep = [];
  const make = (i) => ({ a: i, b: [i, i] });
  for (let round = 0; round < 100; round++) {
    for (let i = 0; i < 20000; i++) keep.push(make(i));
    if (keep.length > 400000) keep.length = 0;
  }`;

function pretenuringDecisions(imports: string[]): string[] {
  const run = spawnSync(process.execPath, ['--trace-pretenuring', '--trace-pretenuring-statistics', '--import', 'tsx', ...imports.flatMap((file) => ['--import', file]), '--input-type=module', '-e', LONG_LIVED_ALLOCATIONS], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((line) => /=> (maybe )?tenure$/.test(line));
}

describe('V8 flags the service sets on itself', () => {
  it('turns allocation-site pretenuring off', () => {
    expect(pretenuringDecisions([]).length).toBeGreaterThan(0);
    expect(pretenuringDecisions(['./src/config/v8-flags.ts'])).toEqual([]);
  }, 120_000);

  it('is loaded by the server and the webhook worker', () => {
    expect(loadedAtStart('server.ts').files.has('config/v8-flags.ts')).toBe(true);
    expect(loadedAtStart('webhooks/worker-main.ts').files.has('config/v8-flags.ts')).toBe(true);
  });
});
