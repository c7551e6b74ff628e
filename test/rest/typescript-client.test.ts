// Issue 47: a client generated from the served document with openapi-typescript, called through
// the plain `createClient<paths>()` of openapi-fetch — the TypeScript example of docs/clients.md as
// written, and every data operation typed as its JSON (not `JSON | string`) with answers that
// validate against the document (JSON Schema 2020-12, ajv).
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { listen } from '../support/listen.js';
import { createResponseValidator } from '../support/openapi-validator.js';
import { concretePaths, isDataOperation, operationsOf } from '../support/openapi-operations.js';
import { fencedBlocks } from '../docs/markdown.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const dir = path.join(root, 'test/.tmp', `typescript-client-${process.pid}`);
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let key: string;
let document: Record<string, any>;
/** tsc's complaints, per file it compiled. */
let diagnostics: string;

/** A call of every data operation, each answer assigned to a JSON envelope type: a string union would not compile. */
async function everyOperationClient(listIds: (path: string) => Promise<string[]>): Promise<string> {
  const calls: string[] = [];
  for (const operation of operationsOf(document).filter(isDataOperation)) {
    const concrete = (await concretePaths(operation.template, listIds))[0]!.split('/');
    const ids = Object.fromEntries(
      operation.template.split('/').flatMap((segment, index) => (/^\{(\w+)\}$/.test(segment) ? [[segment.slice(1, -1), decodeURIComponent(concrete[index]!)]] : [])),
    );
    const options = Object.keys(ids).length > 0 ? `, { params: { path: ${JSON.stringify(ids)} } }` : '';
    calls.push(`{
  const { data, error, response } = await client.GET('${operation.template}'${options});
  const body: Envelope | undefined = data;
  answers.push({ template: '${operation.template}', status: response.status, body: body ?? error });
}`);
  }
  return `import createClient from 'openapi-fetch';
import type { paths } from './signalboard-v1.js';

type Envelope = { data: unknown; meta: { [key: string]: unknown } };
const client = createClient<paths>({ baseUrl: process.env.BASE_URL + '/api/v1', headers: { Authorization: 'Bearer ' + process.env.SIGNALBOARD_KEY } });
const answers: { template: string; status: number; body: unknown }[] = [];
${calls.join('\n')}
console.log(JSON.stringify(answers));
`;
}

const runClient = (file: string) =>
  run(bin('tsx'), [path.join(dir, file)], { env: { ...process.env, BASE_URL: server.baseUrl, SIGNALBOARD_KEY: key }, maxBuffer: 64 * 1024 * 1024 });

beforeAll(async () => {
  t = await createTestApp();
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 10, clients: 1 });
  server = await listen(t.app);
  mkdirSync(dir, { recursive: true });
  // The command docs/clients.md gives, on the URL a reader would use.
  await run(bin('openapi-typescript'), [`${server.baseUrl}/api/v1/openapi.json`, '-o', path.join(dir, 'signalboard-v1.ts')]);
  document = await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json();
  const listIds = async (listPath: string) => {
    const body = (await (await fetch(`${server.baseUrl}/api/v1${listPath}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { id: string }[] };
    return body.data.map((item) => item.id);
  };
  const example = fencedBlocks(readFileSync(path.join(root, 'docs/clients.md'), 'utf8')).filter((block) => block.info === 'ts');
  expect(example, 'docs/clients.md has one TypeScript example').toHaveLength(1);
  writeFileSync(path.join(dir, 'docs-example.mts'), example[0]!.code);
  writeFileSync(path.join(dir, 'every-operation.mts'), await everyOperationClient(listIds));
  // One compiler run for both files: it is the slow part.
  const files = ['docs-example.mts', 'every-operation.mts'].map((file) => path.join(dir, file));
  const flags = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node'];
  diagnostics = await run(bin('tsc'), [...flags, ...files]).then(
    () => '',
    (error: { stdout: string }) => error.stdout,
  );
}, 180_000);

afterAll(async () => {
  await server?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openapi-typescript + openapi-fetch with createClient<paths>()', () => {
  it('compiles and runs the example of docs/clients.md: pages through every answer and reads an export as text', async () => {
    expect(diagnostics.split('\n').filter((line) => line.includes('docs-example.mts'))).toEqual([]);
    const { stdout } = await runClient('docs-example.mts');
    const projects = (await (await fetch(`${server.baseUrl}/api/v1/ai-visibility/projects`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { id: string }[] };
    const unnamed = await fetch(`${server.baseUrl}/api/v1/ai-visibility/projects/${projects.data[0]!.id}/answers?mentioned=false&limit=1`, { headers: { authorization: `Bearer ${key}` } });
    const total = ((await unnamed.json()) as { meta: { total: number } }).meta.total;
    expect(total).toBeGreaterThan(1);
    expect(stdout.trim()).toMatch(new RegExp(`^${total} answers without the brand; sources\\.csv: [1-9]\\d* characters$`));
  }, 60_000);

  it('types every data operation as its JSON envelope, and every answer validates against the document', async () => {
    expect(diagnostics.split('\n').filter((line) => line.includes('every-operation.mts'))).toEqual([]);
    const { stdout } = await runClient('every-operation.mts');
    const answers = JSON.parse(stdout) as { template: string; status: number; body: unknown }[];
    const validate = createResponseValidator(document);
    expect(answers.map((answer) => [answer.template, answer.status, validate(answer.template, answer.status, answer.body)])).toEqual(
      operationsOf(document).filter(isDataOperation).map((operation) => [operation.template, 200, []]),
    );
  }, 60_000);
});
