// What the Dockerfile says about how the service runs, for the benchmarks to start it alike.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** The Node options the image runs the service with (its Dockerfile's ENV), so that a benchmark measures what ships. */
export function imageNodeOptions(dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8')): string {
  const match = /^ENV\b.*\bNODE_OPTIONS=("[^"]*"|\S+)/m.exec(dockerfile);
  return match ? match[1]!.replace(/^"|"$/g, '') : '';
}
