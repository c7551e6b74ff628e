// Issue 47: v1 in the tools people point at it, each used as docs/clients.md says — the document
// fetched from a listening demo instance, imported as it is, with nothing set but the key. Postman
// (openapi-to-postmanv2, run by newman), ChatGPT GPT Actions' import limits, form-based tools
// (n8n, Retool, Power Automate) that send an unset field as `name=`, and the TypeScript client of
// docs/clients.md (openapi-typescript + the plain `createClient<paths>()` of openapi-fetch).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty } from '../../src/demo/first-start.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { listen } from '../support/listen.js';
import { concretePaths, isDataOperation, operationsOf, type Operation } from '../support/openapi-operations.js';
import { fencedBlocks } from '../docs/markdown.js';
import { bin, compileStrictly, root, run } from '../support/project-tools.js';

const dir = path.join(root, 'test/.tmp', `clients-${process.pid}`);

/** ChatGPT GPT Actions refuse an answer past this many characters, and longer texts in the document. */
const GPT = { answer: 100_000, summary: 300, description: 300, parameterDescription: 700 };

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let key: string;
let document: Record<string, any>;
let operations: Operation[];
let apiBase: string;
/** Each operation's concrete paths, path ids taken from the lists, as a user fills them in. */
const pathsOf = new Map<Operation, string[]>();

const get = (pathAndQuery: string) =>
  fetch(`${apiBase}${pathAndQuery}`, { headers: { authorization: `Bearer ${key}` } });

async function listIds(listPath: string): Promise<string[]> {
  const response = await get(listPath);
  const body = (await response.json()) as { data: { id: string }[] };
  expect(response.status, `${listPath}: ${JSON.stringify(body)}`).toBe(200);
  return body.data.map((item) => item.id);
}

beforeAll(async () => {
  // These probes send a few hundred requests; the limiter has its own tests and would only add 429s here.
  t = await createTestApp({ RATE_LIMIT_AGENCY: '100000/1000' });
  key = (await seedDemoIfEmpty(t.database.prisma, t.database.pool))!.secret;
  server = await listen(t.app);
  mkdirSync(dir, { recursive: true });
  const text = await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).text();
  writeFileSync(path.join(dir, 'openapi.json'), text);
  document = JSON.parse(text);
  // Resolved as an importer resolves it: against the address the document came from.
  apiBase = new URL(document.servers[0].url, server.baseUrl).href.replace(/\/$/, '');
  operations = operationsOf(document);
  for (const operation of operations) pathsOf.set(operation, await concretePaths(operation.template, listIds));
}, 300_000);

afterAll(async () => {
  await server?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface NewmanExecution {
  item: { name: string };
  request: { url: { path: string[]; query?: { key: string; value: string | null }[] } };
  response?: { code: number };
  requestError?: { message: string };
}

describe('Postman: openapi-to-postmanv2, then newman with only the bearer token set', () => {
  it('gets an answer to every request, none of them 400 or 5xx', async () => {
    const collection = path.join(dir, 'signalboard.postman.json');
    const report = path.join(dir, 'newman.json');
    await run(bin('openapi2postmanv2'), ['-s', path.join(dir, 'openapi.json'), '-o', collection]);
    // newman exits non-zero when a request fails; the report says which and why.
    await run(bin('newman'), [
      'run',
      collection,
      '--env-var',
      `bearerToken=${key}`,
      '--reporters',
      'json',
      '--reporter-json-export',
      report,
    ]).catch(() => undefined);
    const executions = (JSON.parse(readFileSync(report, 'utf8')) as { run: { executions: NewmanExecution[] } }).run
      .executions;
    const described = executions.map((execution) => {
      const query = (execution.request.url.query ?? []).map((pair) => `${pair.key}=${pair.value ?? ''}`).join('&');
      const outcome = execution.response?.code ?? execution.requestError?.message ?? 'no answer';
      return `${outcome} ${execution.item.name}: /${execution.request.url.path.join('/')}?${query}`;
    });
    const refused = described.filter((_, index) => {
      const code = executions[index]!.response?.code;
      return code === undefined || code === 400 || code >= 500;
    });
    expect(refused, described.join('\n')).toEqual([]);
    expect(executions).toHaveLength(operations.length);
  }, 120_000);
});

describe('ChatGPT GPT Actions: what an imported document and its answers must fit', () => {
  it("keeps every summary, description and parameter description within the importer's lengths", () => {
    const tooLong = operations.flatMap((operation) => [
      ...((operation.summary ?? '').length > GPT.summary ? [`${operation.operationId} summary`] : []),
      ...((operation.description ?? '').length > GPT.description ? [`${operation.operationId} description`] : []),
      ...operation.parameters
        .filter((parameter) => (parameter.description ?? '').length > GPT.parameterDescription)
        .map((parameter) => `${operation.operationId} ${parameter.name}`),
    ]);
    expect(tooLong).toEqual([]);
    expect(operations.every((operation) => operation.operationId && operation.summary)).toBe(true);
  });

  it('declares no header parameters and one security scheme (actions send no custom headers)', () => {
    const headers = operations.flatMap((operation) =>
      operation.parameters
        .filter((parameter) => parameter.in === 'header')
        .map((parameter) => `${operation.operationId}: ${parameter.name}`),
    );
    expect(headers).toEqual([]);
    expect(Object.keys(document.components.securitySchemes)).toHaveLength(1);
  });

  it(
    'answers every data operation with default parameters in ' +
      'at most 100 000 characters, on every report and project',
    async () => {
      const sizes: string[] = [];
      for (const operation of operations.filter(isDataOperation)) {
        for (const concrete of pathsOf.get(operation)!) {
          const response = await get(concrete);
          const text = await response.text();
          expect(response.status, `${concrete}: ${text.slice(0, 300)}`).toBe(200);
          if (text.length > GPT.answer) sizes.push(`${concrete}: ${text.length}`);
        }
      }
      expect(sizes).toEqual([]);
    },
    120_000,
  );
});

describe('form-based tools: a field left empty is sent as name=', () => {
  /** The body's first 256 KiB: an export streams megabytes, and a filter shows in its first rows. */
  async function digest(response: Response): Promise<string> {
    const hash = createHash('sha256');
    const reader = response.body!.getReader();
    for (let left = 256 * 1024; left > 0;) {
      const { done, value } = await reader.read();
      if (done) break;
      hash.update(value.subarray(0, left));
      left -= value.byteLength;
    }
    await reader.cancel();
    return hash.digest('hex');
  }

  it('reads every empty query value of every operation as absent', async () => {
    const differing: string[] = [];
    for (const operation of operations) {
      const concrete = pathsOf.get(operation)![0]!;
      const absent = await get(concrete);
      const expected = { status: absent.status, body: await digest(absent) };
      for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'query')) {
        const empty = await get(`${concrete}?${encodeURIComponent(parameter.name)}=`);
        const actual = { status: empty.status, body: await digest(empty) };
        if (actual.status !== expected.status || actual.body !== expected.body)
          differing.push(`${concrete}?${parameter.name}= → ${actual.status} (absent: ${expected.status})`);
      }
    }
    expect(differing).toEqual([]);
  }, 120_000);
});

describe('a TypeScript client generated with openapi-typescript, called through openapi-fetch', () => {
  it(
    'compiles and runs the example of docs/clients.md: every ' +
      'answer without the brand, page by page, and an export as text',
    async () => {
      const examples = fencedBlocks(readFileSync(path.join(root, 'docs/clients.md'), 'utf8')).filter(
        (block) => block.info === 'ts',
      );
      expect(examples, 'docs/clients.md has one TypeScript example').toHaveLength(1);
      writeFileSync(path.join(dir, 'example.mts'), examples[0]!.code);
      // The command docs/clients.md gives, on the URL a reader would use.
      await run(bin('openapi-typescript'), [
        `${server.baseUrl}/api/v1/openapi.json`,
        '-o',
        path.join(dir, 'signalboard-v1.ts'),
      ]);
      await compileStrictly(path.join(dir, 'example.mts'), 'the example');
      const { stdout } = await run(bin('tsx'), [path.join(dir, 'example.mts')], {
        env: { ...process.env, BASE_URL: server.baseUrl, SIGNALBOARD_KEY: key },
      });
      const projectId = (await listIds('/ai-visibility/projects'))[0]!;
      const unnamed = (await (
        await get(`/ai-visibility/projects/${projectId}/answers?mentioned=false&limit=1`)
      ).json()) as { meta: { total: number } };
      expect(unnamed.meta.total).toBeGreaterThan(500);
      expect(stdout.trim()).toMatch(
        new RegExp(`^${unnamed.meta.total} answers without the brand; sources\\.csv: [1-9]\\d* characters$`),
      );
    },
    120_000,
  );
});
