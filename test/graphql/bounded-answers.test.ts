// Bounded answers through /graphql and v1: the cost limit sees variables, the ids of nodes and
// the capped lists (a project's prompts); an answer over the byte cap is refused with
// response_too_large; an unexpected failure is a 500 logged with its cause and request id.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

// Above every demo answer asked for here; the byte tests make some answers' texts long.
const RESPONSE_MAX_BYTES = 1024 * 1024;
// Half the default, so that each case below sits clearly on one side of it.
const GRAPHQL_MAX_COST = 1_000_000;

const logged: Record<string, unknown>[] = [];
const logger = pino(
  { level: 'error' },
  new Writable({ write: (chunk, _encoding, done) => (logged.push(JSON.parse(String(chunk))), done()) }),
);

let t: TestApp;
let key: string;
let projectIds: string[];

beforeAll(async () => {
  t = await createTestApp(
    { RESPONSE_MAX_BYTES: String(RESPONSE_MAX_BYTES), GRAPHQL_MAX_COST: String(GRAPHQL_MAX_COST) },
    { logger },
  );
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 10, clients: 1 });
  projectIds = (await t.database.prisma.aiProject.findMany({ where: { workspaceId: keyed.workspace.id } })).map(
    (project) => project.id,
  );
});
afterAll(() => t.close());

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return { status: response.status, body: await json(response) };
}

const costOf = (message: string) => Number(/costs (\d+)/.exec(message)?.[1]);

describe('the cost limit', () => {
  // Each prompt of the project (counted at the 500-row cap) with its n latest answers, their text and citations.
  const ANSWER = 'id text prompt date model locale brandMentions citations { url domain title position }';
  const RUNS = (first: string) =>
    `node(id: $project) { ... on AiVisibilityProject { prompts(limit: 500) { data { runs(first: ${first}) { nodes ` +
    `{ ${ANSWER} } } } } } }`;

  it('counts sizes given as variables as it counts literals', async () => {
    const literal = await graphql(`query($project: ID!) { ${RUNS('100')} }`, { project: projectIds[0] });
    const variable = await graphql(`query($project: ID!, $n: Int) { ${RUNS('$n')} }`, {
      project: projectIds[0],
      n: 100,
    });
    for (const { status, body } of [literal, variable]) {
      expect(status).toBe(400);
      expect(body.errors[0].extensions.code).toBe('query_too_complex');
      expect(body.data).toBeUndefined();
    }
    expect(costOf(variable.body.errors[0].message)).toBe(costOf(literal.body.errors[0].message));
    const small = await graphql(`query($project: ID!, $n: Int) { ${RUNS('$n')} }`, { project: projectIds[0], n: 2 });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.node.prompts.data.length).toBeGreaterThan(0);
  });

  it("counts a project's prompts by their limit: the default page is admitted, 500 of them are not", async () => {
    // Each prompt's pooled rates per locale, per model and per competitor are cheap for a page of
    // prompts and over the limit for 500 of them.
    const rates =
      'totalRuns visibility shareOfVoice averagePosition mentionCount visibilityCount totalMentionCount positionSum';
    const perLocale = `locale ${rates} byModel { model ${rates} } competitors { name ${rates} }`;
    const query = (args: string) =>
      `query($project: ID!) { node(id: $project) { ... on AiVisibilityProject { prompts${args} { data { id totals ` +
      `{ ${perLocale} } metrics { ${perLocale} } } } } } }`;
    expect((await graphql(query(''), { project: projectIds[0] })).body.errors).toBeUndefined();
    const { status, body } = await graphql(query('(limit: 500)'), { project: projectIds[0] });
    expect(status).toBe(400);
    expect(body.errors[0].extensions.code).toBe('query_too_complex');
    expect(costOf(body.errors[0].message)).toBeGreaterThan(GRAPHQL_MAX_COST);
  });

  it('counts nodes(ids) by the number of ids', async () => {
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on AiVisibilityProject { prompts(limit: 500) {
      data { runs(first: 2) { nodes { id text prompt date model locale brandMentions
        citations { url domain title position } } } } } } } }`;
    const one = await graphql(query, { ids: [projectIds[0]] });
    expect(one.body.errors).toBeUndefined();
    const many = await graphql(query, { ids: Array.from({ length: 30 }, () => projectIds[0]) });
    expect(many.status).toBe(400);
    expect(many.body.errors[0].extensions.code).toBe('query_too_complex');
  });

  it("admits the web app's ProjectAnswers at its defaults and refuses it with 100 answers a prompt", async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../../graphql/operations/project-answers.graphql', import.meta.url), 'utf8');
    const atDefaults = await graphql(text, { id: projectIds[0] });
    expect(atDefaults.body.errors).toBeUndefined();
    const hundred = await graphql(text, { id: projectIds[0], answersPerPrompt: 100 });
    expect(hundred.status).toBe(400);
    expect(hundred.body.errors[0].extensions.code).toBe('query_too_complex');
  });
});

describe('the response byte cap', () => {
  it('refuses a /graphql answer over the cap with response_too_large, naming where it ran over', async () => {
    // Ten answers of 30 KB: once each they fit, four times over they do not.
    const answers = await t.database.pool.query<{ id: string }>(
      'SELECT id FROM ai_answers WHERE project_id = $1 ORDER BY id LIMIT 10',
      [projectIds[0]],
    );
    const ids = answers.rows.map((row) => row.id);
    await t.database.pool.query('UPDATE ai_answers SET text = repeat($2, 2500) WHERE id = ANY($1)', [
      ids,
      'long answer ',
    ]);
    const aliases = Array.from(
      { length: 4 },
      (_, index) => `copy${index}: nodes(ids: $ids) { ... on AiVisibilityAnswer { id text } }`,
    ).join(' ');
    const { status, body } = await graphql(`query($ids: [ID!]!) { ${aliases} }`, { ids });
    expect(status).toBe(400);
    expect(body.data).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions.code).toBe('response_too_large');
    expect(body.errors[0].message).toMatch(/at copy\d\.\d+\.(text|id)/);
    // The same answers once each fit.
    const once = await graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { ... on AiVisibilityAnswer { id text } } }`, {
      ids,
    });
    expect(once.body.errors).toBeUndefined();
  });

  it('refuses to read more answers than the cap holds, before holding them, whatever the answer keeps', async () => {
    // A hundred answers of 30 KB, 3 MB read for an answer of ids: the texts would be held in memory all the same
    // (500 prompts × 100 runs of 100 000 characters ran the service out of memory). A request reads at most twice
    // the cap (a page reads one row past itself): 2 MB here.
    const { rows } = await t.database.pool.query<{ id: string; text: string }>(
      'SELECT id, text FROM ai_answers WHERE project_id = $1 ORDER BY date DESC, id DESC LIMIT 100',
      [projectIds[0]],
    );
    await t.database.pool.query('UPDATE ai_answers SET text = repeat($2, 2500) WHERE id = ANY($1)', [
      rows.map((row) => row.id),
      'long answer ',
    ]);
    try {
      const runs = (first: number) =>
        `query($project: ID!) { node(id: $project) { ... on AiVisibilityProject { prompts(limit: 500) { data { ` +
        `runs(first: ${first}) { nodes { id } } } } } } }`;
      // A list's error, as any resolver's: the rest of the answer stands (200), that list is null.
      const { status, body } = await graphql(runs(100), { project: projectIds[0] });
      expect(status).toBe(200);
      expect(body.errors?.map((error: { extensions: { code: string } }) => error.extensions.code)).toContain(
        'response_too_large',
      );
      expect(body.errors[0].message).toMatch(/^The answers this request reads would exceed 2 MB/);
      // v1's pages read within the same bound: a page of these 100 long answers passes it.
      const page = await t.get(`/api/v1/ai-visibility/projects/${projectIds[0]}/answers?limit=100`, key);
      expect([page.status, (await json(page)).error?.message]).toEqual([
        400,
        expect.stringMatching(/^The answers this request reads/),
      ]);
      const fewer = await t.get(`/api/v1/ai-visibility/projects/${projectIds[0]}/answers?limit=20`, key);
      expect(fewer.status).toBe(200);
    } finally {
      for (const row of rows)
        await t.database.pool.query('UPDATE ai_answers SET text = $2 WHERE id = $1', [row.id, row.text]);
    }
  });

  it('refuses a v1 answer over the cap with response_too_large in the error envelope', async () => {
    const {
      rows: [answer],
    } = await t.database.pool.query<{ id: string; text: string }>(
      'SELECT id, text FROM ai_answers WHERE project_id = $1 ORDER BY id DESC LIMIT 1',
      [projectIds[0]],
    );
    const path = `/api/v1/ai-visibility/projects/${projectIds[0]}/answers/${answer!.id}`;
    expect((await t.get(path, key)).status).toBe(200);
    await t.database.pool.query('UPDATE ai_answers SET text = repeat($2, $3) WHERE id = $1', [
      answer!.id,
      'long answer ',
      RESPONSE_MAX_BYTES / 8,
    ]);
    try {
      const response = await t.get(path, key);
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.error.code).toBe('response_too_large');
      expect(body.error.message).toMatch(/at data\.text/);
    } finally {
      await t.database.pool.query('UPDATE ai_answers SET text = $2 WHERE id = $1', [answer!.id, answer!.text]);
    }
  });
});

describe('an unexpected failure in /graphql', () => {
  it('is a 500 internal_error, logged with its cause and the request id', async () => {
    // A statement PostgreSQL refuses for a reason that is not "unavailable": the column is gone.
    await t.database.pool.query('ALTER TABLE ai_prompts RENAME COLUMN topic TO topic_gone');
    try {
      const response = await t.app.fetch(
        new Request('http://test.local/graphql', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${key}`,
            'x-request-id': 'req-bounded-500',
          },
          body: JSON.stringify({
            query: 'query($id: ProjectId!) { aiVisibilityPrompts(id: $id) { data { id topic } } }',
            variables: { id: projectIds[0] },
          }),
        }),
      );
      expect(response.status).toBe(500);
      const body = await json(response);
      expect(body.errors[0].extensions.code).toBe('internal_error');
      expect(JSON.stringify(body)).not.toContain('topic_gone');
      const entry = logged.find((line) => line.msg === 'graphql request failed');
      expect(entry).toBeDefined();
      expect(JSON.stringify(entry)).toMatch(/topic/);
      expect(entry!.requestId).toBe(response.headers.get('x-request-id'));
    } finally {
      await t.database.pool.query('ALTER TABLE ai_prompts RENAME COLUMN topic_gone TO topic');
    }
  });
});
