// The command-line tools a user points at v1 (Postman's converter, newman, openapi-typescript, tsc,
// tsx, redocly), run from the project's node_modules as a user would run them.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const root = path.resolve(import.meta.dirname, '../..');
export const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

/** How a user of a generated client type-checks their module: strict, as an ES module on Node. */
const STRICT_MODULE = [
  '--noEmit',
  '--strict',
  '--skipLibCheck',
  '--target',
  'es2022',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
];

/** Type-checks `file` as that user would; a failure names `what` and carries tsc's report. */
export const compileStrictly = (file: string, what: string) =>
  run(bin('tsc'), [...STRICT_MODULE, file]).catch((error: { stdout: string }) => {
    throw new Error(`${what} does not compile:\n${error.stdout}`);
  });
