// Operator CLI: `npm run cli -- <command>`. Every command has --json; bad input exits
// non-zero with a one-line error. One file per command group under commands/.
import '../config/node-version.js';
import { runCli } from './program.js';

// An explicit exit: a library's exit hook must not turn a failure into status 0.
void runCli(process.argv, process.env).then((code) => process.exit(code));
