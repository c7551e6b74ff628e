// The V8 settings the service applies to itself: a process that loads src/config/v8-flags.ts makes
// no pretenuring decisions where the same code without it does, and still compiles hot code with
// Maglev; both entry points load it.
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

// A function hot enough to be optimized: V8 tiers it up to Maglev first, then TurboFan. Both
// compile on V8's worker threads, so the loop runs for a time, not a count: with the test suite
// loading both cores, 200 000 calls (~30 ms) once ended before TurboFan's job had started, and
// 2 s once ended before a tier was reported (a full suite on 2 cores, 2026-11-28).
const HOT_FUNCTION = `
  function hotLoopBody(x) { let s = 0; for (let i = 0; i < 100; i++) s += x * i; return s; }
  let total = 0;
  const end = Date.now() + 5000;
  while (Date.now() < end) for (let i = 0; i < 10000; i++) total += hotLoopBody(i);`;

/** The lines V8's tracing flags print while the script runs, with the given modules imported first. */
function traced(flags: string[], imports: string[], script: string): string[] {
  const run = (args: string[], code: string) =>
    spawnSync(
      process.execPath,
      [...args, '--import', 'tsx', ...imports.flatMap((file) => ['--import', file]), '--input-type=module', '-e', code],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
  // Once untraced first, so tsx has the modules transformed and cached: a cold transform runs
  // before the module sets its flags and made pretenuring decisions of its own.
  expect(run([], '').status).toBe(0);
  const traced = run(flags, script);
  expect(traced.status, traced.stderr).toBe(0);
  return traced.stdout.split('\n');
}

const pretenuringDecisions = (imports: string[]) =>
  traced(['--trace-pretenuring', '--trace-pretenuring-statistics'], imports, LONG_LIVED_ALLOCATIONS).filter((line) =>
    /=> (maybe )?tenure$/.test(line),
  );
// Only the script's function: the loader's own code may be compiled before the module sets flags.
const optimizationTargets = (imports: string[]) =>
  new Set(
    traced(['--trace-opt'], imports, HOT_FUNCTION).flatMap(
      (line) => /^\[compiling method .*<JSFunction hotLoopBody .*\(target (\w+)\)/.exec(line)?.[1] ?? [],
    ),
  );

describe('V8 flags the service sets on itself', () => {
  it('turns allocation-site pretenuring off', () => {
    expect(pretenuringDecisions([]).length).toBeGreaterThan(0);
    expect(pretenuringDecisions(['./src/config/v8-flags.ts'])).toEqual([]);
  }, 120_000);

  it('leaves Maglev on: hot code goes through it to TurboFan (without it a v1 read cost 27–44 % more CPU)', () => {
    const targets = optimizationTargets(['./src/config/v8-flags.ts']);
    expect(targets.has('MAGLEV')).toBe(true);
    expect(targets.has('TURBOFAN_JS')).toBe(true);
  }, 120_000);

  it('is loaded by the server and the webhook worker', () => {
    expect(loadedAtStart('server.ts').files.has('config/v8-flags.ts')).toBe(true);
    expect(loadedAtStart('webhooks/worker-main.ts').files.has('config/v8-flags.ts')).toBe(true);
  });
});
