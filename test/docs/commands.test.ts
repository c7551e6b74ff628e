// Every ```bash block of README.md and docs/ runs as written against a test instance seeded
// with the demo data `npm start` seeds, with the variables the docs tell a reader to set:
// BASE_URL, SIGNALBOARD_KEY and SIGNALBOARD_OWNER_PASSWORD (the demo key and owner password
// npm start prints) and INGEST_TOKEN, and the CLI on
// the instance's database (DATABASE_URL). A file's blocks run in order in one shell, as a reader
// would type them into one terminal, so ids a block sets are there for the next. Conventions:
// docs/development.md, "Documentation that runs".
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { TEST_APP_SECRET_KEY } from '../support/secrets.js';
import { listen } from '../support/listen.js';
import { seedDemoIfEmpty } from '../../src/demo/first-start.js';
import { documentationFiles, fencedBlocks, REPOSITORY, runnableBlocks } from './markdown.js';

const INGEST_TOKEN = 'docs-test-ingest-token-0123456789abcdef';

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let key: string;
let ownerPassword: string;
let workDir: string;

/**
 * One bash process for the file: each block sourced in turn; the first failing command stops it
 * and names its block. Asynchronous: the instance answering the commands lives in this process.
 */
function runBlocks(file: string, blocks: ReturnType<typeof runnableBlocks>) {
  const scripts = blocks.map((block, index) => {
    const script = path.join(workDir, `${path.basename(file, '.md')}-${index}.sh`);
    writeFileSync(script, `${block.code}\n`);
    return { script, block };
  });
  const driver = [
    'set -Eeuo pipefail',
    `trap 'echo "docs-test: failed in ${file} at line $BLOCK_LINE (exit $?)" >&2' ERR`,
    ...scripts.flatMap(({ script, block }) => [
      `BLOCK_LINE=${block.line}`,
      `echo "--- ${file}:${block.line}"`,
      `source ${JSON.stringify(script)}`,
    ]),
    `echo "--- ${file}: end"`,
  ].join('\n');
  const child = spawn('bash', ['-c', driver], {
    cwd: workDir,
    timeout: 120_000,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? workDir,
      BASE_URL: server.baseUrl,
      SIGNALBOARD_KEY: key,
      SIGNALBOARD_OWNER_PASSWORD: ownerPassword,
      INGEST_TOKEN,
      DATABASE_URL: t.url,
      APP_SECRET_KEY: TEST_APP_SECRET_KEY,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The docs' commands pick ids out of JSON with jq; in CI (CI=true) its absence fails the run instead of skipping. */
function jqAvailable(): boolean {
  const available = spawnSync('jq', ['--version']).status === 0;
  if (!available && process.env.CI) throw new Error('jq is missing; .ci/run installs it (apt-get install jq)');
  if (!available) console.warn('Docs command tests skipped: no jq (apt-get install -y jq)');
  return available;
}

describe.runIf(jqAvailable())('commands in the documentation', () => {
  beforeAll(async () => {
    t = await createTestApp({ INGEST_TOKEN });
    const demo = await seedDemoIfEmpty(t.database.prisma, t.database.pool);
    key = demo!.secret;
    ownerPassword = demo!.ownerPassword;
    server = await listen(t.app);
    // Inside the repository (test/.tmp is ignored), so `npm run cli` finds the project as it does for a reader.
    mkdirSync(path.join(REPOSITORY, 'test/.tmp'), { recursive: true });
    workDir = mkdtempSync(path.join(REPOSITORY, 'test/.tmp/docs-'));
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await t?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  for (const file of documentationFiles()) {
    const text = readFileSync(path.join(REPOSITORY, file), 'utf8');
    const blocks = runnableBlocks(text);
    if (blocks.length === 0) continue;
    it(`${file}: every bash block runs against a demo instance`, async () => {
      const result = await runBlocks(file, blocks);
      expect(result.status, `${result.stderr}\n${result.stdout.slice(-4000)}`).toBe(0);
      // What a reader's terminal shows: each block's output ends its last line (a JSON answer
      // without a newline runs into the prompt or the next command's output), and no two JSON
      // documents share a line.
      expect(
        result.stdout.match(/[^\n]--- \S+\.md:(?:\d+| end)/g) ?? [],
        "a block's output that does not end with a newline",
      ).toEqual([]);
      expect(
        result.stdout.split('\n').filter((line) => /[}\]]\{"/.test(line)),
        'JSON documents glued on one line',
      ).toEqual([]);
    }, 150_000);
  }
});

describe('shell blocks in the documentation', () => {
  it('gives every skipped block a reason and runs no shell block it cannot see', () => {
    for (const file of documentationFiles()) {
      for (const block of fencedBlocks(readFileSync(path.join(REPOSITORY, file), 'utf8'))) {
        // A shell block under another name would silently escape the test.
        expect(
          ['sh', 'shell', 'console', 'zsh'],
          `${file}:${block.line} uses \`\`\`${block.info}; use bash (run) or text (not a command)`,
        ).not.toContain(block.info);
        if (block.skip !== null) expect(block.skip.trim().length, `${file}:${block.line}`).toBeGreaterThan(0);
      }
    }
  });
});
