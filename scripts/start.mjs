// `npm start`: runs the compiled server (dist/server.js), building it first when it is missing
// or older than its sources, so that the README's two commands stay two. Plain JavaScript: it
// must run before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUILD_STAMP = path.join(root, 'dist/.build-stamp');
const SOURCES = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

/** True when the build stamp is missing or older than any source. */
export function buildIsStale(sources = SOURCES.map((entry) => path.join(root, entry)), stamp = BUILD_STAMP) {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return sources.some((source) => newestMtime(source) > built);
}

export function build() {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('the TypeScript build failed (see above)');
  writeFileSync(BUILD_STAMP, new Date().toISOString());
  return Date.now() - started;
}

// `--build` (npm run build) builds and stops; `--prebuild` (npm's postinstall) builds when the
// sources and the compiler are there (not in the image's dependency layers), so that the first
// `npm start` only starts, and never fails the install (npm start builds again and shows why);
// `--worker` (npm run worker) starts the webhook delivery worker instead of the server;
// otherwise build when stale, then start the server.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv.includes('--prebuild')) {
  if (existsSync(path.join(root, 'src')) && existsSync(path.join(root, 'node_modules/typescript')) && buildIsStale()) {
    process.stdout.write('Building dist/ for npm start … ');
    try {
      process.stdout.write(`done in ${(build() / 1000).toFixed(1)} s\n`);
    } catch (error) {
      process.stdout.write(`skipped (${error.message}); npm start will build it\n`);
    }
  }
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const buildOnly = process.argv.includes('--build');
  if (buildOnly || buildIsStale()) {
    process.stdout.write('Building dist/ … ');
    process.stdout.write(`done in ${(build() / 1000).toFixed(1)} s\n`);
  }
  const entry = process.argv.includes('--worker') ? 'dist/webhooks/worker-main.js' : 'dist/server.js';
  if (!buildOnly) await import(pathToFileURL(path.join(root, entry)).href);
}
