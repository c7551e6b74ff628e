// Real server processes (and a real redis-server) for the multi-instance tests.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from './global-setup.js';
import { TEST_APP_SECRET_KEY } from './secrets.js';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  baseUrl: string;
  stop(): Promise<void>;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** What it printed on stdout alone. */
  stdout(): string;
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

/**
 * `src/server.ts` in its own process. `node --import tsx` keeps it one process, so signals
 * reach the server itself and its exit code is its own (the tsx CLI runs it in a child).
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    // A short drain: the tests stop their servers often.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      APP_SECRET_KEY: TEST_APP_SECRET_KEY,
      SHUTDOWN_GRACE_SECONDS: '2',
      METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
      const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => stopProcess(child),
    child,
    output: () => output,
    stdout: () => stdout,
  };
}

/** Whether redis-server is installed; in CI (CI=true) its absence fails the run instead of skipping. */
export function redisAvailable(): boolean {
  const available = spawnSync('redis-server', ['--version']).status === 0;
  if (!available && process.env.CI)
    throw new Error('redis-server is missing; .ci/run installs it (apt-get install redis-server)');
  if (!available) console.warn('Redis tests skipped: no redis-server (apt-get install -y redis-server)');
  return available;
}

export async function startRedis(fixedPort?: number): Promise<{ url: string; stop(): Promise<void> }> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.stdout!.resume();
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopProcess(child) };
}
