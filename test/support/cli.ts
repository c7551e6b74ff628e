// Running the operator CLI from a test: a command in the test's own process (runCli, what the
// executable runs; no process start, no second compile of the sources), or, where the process
// itself is the point (exit status, stdin, start-up), as an operator runs it.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../src/cli/program.js';
import { TEST_APP_SECRET_KEY } from './secrets.js';

export const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '../..');
export const TSX = path.join(REPOSITORY_ROOT, 'node_modules/.bin/tsx');
/** A command that has not exited in a minute hangs, however loaded the machine. */
export const HANG = 60_000;

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment a command of the test runs with: the test's database and secret key. */
export const cliEnv = (databaseUrl: string): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  APP_SECRET_KEY: TEST_APP_SECRET_KEY,
});

/** One command run in this process, its output captured as the executable would print it. */
export async function runInProcess(env: NodeJS.ProcessEnv, args: string[]): Promise<Outcome> {
  const output = { stdout: '', stderr: '' };
  const streams = { stdout: process.stdout, stderr: process.stderr } as const;
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  for (const name of ['stdout', 'stderr'] as const) {
    streams[name].write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      output[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      // A command may wait for its write to be flushed (write's callback, after an encoding or not).
      (rest.find((argument) => typeof argument === 'function') as (() => void) | undefined)?.();
      return true;
    }) as typeof process.stdout.write;
  }
  try {
    return { code: await runCli(['node', 'signalboard', ...args], env), ...output };
  } finally {
    streams.stdout.write = writes.stdout;
    streams.stderr.write = writes.stderr;
  }
}

/** One command as an operator runs it (`npm run cli`): its own process, bounded by HANG, given `stdin` if any. */
export async function runSpawned(env: NodeJS.ProcessEnv, args: string[], stdin?: string): Promise<Outcome> {
  const running = promisify(execFile)(TSX, ['src/cli/index.ts', ...args], { cwd: REPOSITORY_ROOT, timeout: HANG, env });
  if (stdin !== undefined) running.child.stdin?.end(stdin);
  try {
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}
