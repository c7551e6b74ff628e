// The GraphQL cost counts what a query can return: random queries over the AI-visibility graph,
// run through /graphql on a project with many locales and every model, each answer's values
// counted (an object's fields, a list's items) and compared with the estimate the cost limit
// uses. Every list of the fixture holds more than the old default of 10 where its rows allow
// (12 locales, 12 competitors, citations, searches and pages a run, 36 tags), so a list counted at a guess
// or without its locales is found.
import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isLeafType,
  isNonNullType,
  isObjectType,
  parse,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';
import { operationCost } from '../../src/graphql/cost.js';
import { parseConfig } from '../../src/config/index.js';
import { AI_MODELS } from '../../src/ai-visibility/common/models.js';
import { addDays } from '../../src/dates/civil-date.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { createProject } from '../support/projects.js';

const TOKEN = 'c'.repeat(40);
const LOCALES = Array.from({ length: 12 }, (_, index) => `x${String.fromCharCode(97 + index)}-XX`);
const COMPETITORS = Array.from({ length: 12 }, (_, index) => `Rival ${index}`);
const PROMPTS = ['best crm', 'crm pricing', 'crm for startups'];
const today = new Date().toISOString().slice(0, 10);

let t: TestApp;
let key: string;
let projectId: string;
let ids: Record<string, string>;

const runOf = (prompt: string, locale: string, seed: number) => ({
  prompt,
  topic: prompt,
  tags: Array.from({ length: 12 }, (_, index) => `${prompt} ${index}`),
  answer: `On ${prompt}: Acme.`,
  brandMentions: seed % 2,
  totalMentions: (seed % 2) + COMPETITORS.length,
  position: seed % 2 ? 1 : null,
  sentiment: seed % 2 ? 'positive' : null,
  competitors: COMPETITORS.map((name, index) => ({ name, mentions: 1, position: index + 2 })),
  citations: Array.from({ length: 12 }, (_, index) => ({
    url: `https://site${index}-${locale.toLowerCase()}.com/${prompt.replace(/ /g, '-')}`,
  })),
  searchQueries: Array.from({ length: 12 }, (_, index) => `${prompt} ${locale} ${index}`),
  retrieved: Array.from({ length: 12 }, (_, index) => ({ url: `https://acme.com/${locale}/${index}` })),
});

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN, GRAPHQL_MAX_COST: String(Number.MAX_SAFE_INTEGER) });
  const keyed = await createKeyedWorkspace(t.database, { plan: 'scale' });
  key = keyed.key.secret;
  projectId = (
    await createProject(t.database, keyed.workspace.id, {
      name: 'Many locales',
      competitors: COMPETITORS,
      models: [...AI_MODELS],
      locales: LOCALES,
      domains: ['acme.com'],
    })
  ).id;
  const lines = [today, addDays(today, -1)].flatMap((date, day) =>
    AI_MODELS.flatMap((model) =>
      LOCALES.map((locale) => ({
        project: projectId,
        date,
        model,
        locale,
        runs: PROMPTS.map((prompt, index) => runOf(prompt, locale, day + index)),
      })),
    ),
  );
  const response = await t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines.map((line) => JSON.stringify(line)).join('\n'),
    }),
  );
  expect(response.status).toBe(200);
  const answer = await t.database.pool.query<{ id: string; prompt_id: string }>(
    'SELECT id, prompt_id FROM ai_answers WHERE project_id = $1 LIMIT 1',
    [projectId],
  );
  ids = {
    AiVisibilityProject: projectId,
    AiVisibilityPrompt: answer.rows[0]!.prompt_id,
    AiVisibilityAnswer: answer.rows[0]!.id,
  };
}, 120_000);

async function graphql(query: string, variables: Record<string, unknown>) {
  const response = await t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return json(response);
}
afterAll(() => t.close());

// ---- random queries over the schema, from a project, a prompt or an answer down --------------

const FOLLOWED = /^(AiVisibility|ListMeta$|DateRange$|PageInfo$|SignalRule)/;

/** A value for an argument this test knows how to give, or undefined (left out). */
function argumentArb(name: string, typeName: string, required: boolean): fc.Arbitrary<string | undefined> | null {
  const type = schema.getType(typeName);
  const optional = <T>(arb: fc.Arbitrary<T>) => (required ? arb : fc.option(arb, { nil: undefined }));
  if (name === 'limit' || name === 'first') return optional(fc.integer({ min: 1, max: 14 }).map(String));
  if (name === 'locale') return optional(fc.constantFrom(...LOCALES).map((locale) => JSON.stringify(locale)));
  if (type && isEnumType(type)) return optional(fc.constantFrom(...type.getValues().map((value) => value.name)));
  if (typeName === 'Boolean') return optional(fc.boolean().map(String));
  return required ? null : fc.constant(undefined);
}

function fieldArb(field: GraphQLField<unknown, unknown>, depth: number): fc.Arbitrary<string> | null {
  const named = getNamedType(field.type);
  if (!isLeafType(named) && !(isObjectType(named) && FOLLOWED.test(named.name) && depth > 0)) return null;
  const args: fc.Arbitrary<string | undefined>[] = [];
  for (const arg of field.args) {
    const arb = argumentArb(
      arg.name,
      getNamedType(arg.type).name,
      isNonNullType(arg.type) && arg.defaultValue === undefined,
    );
    if (!arb) return null;
    args.push(arb.map((value) => (value === undefined ? undefined : `${arg.name}: ${value}`)));
  }
  const argText = fc.tuple(...args).map((values) => {
    const given = values.filter((value) => value !== undefined);
    return given.length ? `(${given.join(', ')})` : '';
  });
  if (isLeafType(named)) return argText.map((text) => `${field.name}${text}`);
  const selection = selectionArb(named as GraphQLObjectType, depth - 1);
  return selection && fc.tuple(argText, selection).map(([text, fields]) => `${field.name}${text} { ${fields} }`);
}

const selections = new Map<string, fc.Arbitrary<string> | null>();

/** Up to four fields of `type`, objects followed `depth` levels further (null: none to select). */
function selectionArb(type: GraphQLObjectType, depth: number): fc.Arbitrary<string> | null {
  const key = `${type.name}/${depth}`;
  if (!selections.has(key)) {
    const fields = Object.values(type.getFields()).flatMap((field) => {
      const arb = fieldArb(field, depth);
      return arb ? [arb] : [];
    });
    const chosen = fields.length
      ? fc.shuffledSubarray(fields, { minLength: 1, maxLength: Math.min(4, fields.length) })
      : null;
    selections.set(key, chosen && chosen.chain((picked) => fc.tuple(...picked)).map((texts) => texts.join(' ')));
  }
  return selections.get(key)!;
}

/**
 * A query from a project, a prompt or an answer (`node`): lists under a prompt or an answer are not hidden by the
 * slack of the 500 prompts a project's list is counted at.
 */
const queryArb = fc.constantFrom('AiVisibilityProject', 'AiVisibilityPrompt', 'AiVisibilityAnswer').chain((typeName) =>
  selectionArb(schema.getType(typeName) as GraphQLObjectType, 4)!.map((selection) => ({
    typeName,
    query: `query($id: ID!) { node(id: $id) { ... on ${typeName} { ${selection} } } }`,
  })),
);

/**
 * The values an answer holds: each field of each object, each item of a list of objects (a list of scalars is one
 * value: one column).
 */
function valuesIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + valuesIn(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce(
    (sum: number, field) =>
      sum +
      (Array.isArray(field) && field.every((item) => item === null || typeof item !== 'object')
        ? 1
        : 1 + valuesIn(field)),
    0,
  );
}

const context = { config: parseConfig({}), now: new Date() } as never;

describe('the cost estimate', () => {
  it('is at least the values a random query over a many-locale project returns', async () => {
    await fc.assert(
      fc.asyncProperty(queryArb, async ({ typeName, query }) => {
        const variables = { id: ids[typeName] };
        const body = await graphql(query, variables);
        expect(body.errors).toBeUndefined();
        expect(operationCost(schema, parse(query), null, variables, context)).toBeGreaterThanOrEqual(
          valuesIn(body.data),
        );
      }),
      { numRuns: 40, seed: 48 },
    );
  }, 240_000);

  it("counts a prompt's search queries per locale (the reproduction: `limit` counted once per prompt)", async () => {
    const query =
      'query($id: ID!) { node(id: $id) { ... on AiVisibilityPrompt { searchQueries(limit: 3) { locale query runs } ' +
      '} } }';
    const body = await graphql(query, { id: ids.AiVisibilityPrompt });
    expect(body.data.node.searchQueries).toHaveLength(LOCALES.length * 3);
    expect(operationCost(schema, parse(query), null, { id: ids.AiVisibilityPrompt }, context)).toBeGreaterThanOrEqual(
      valuesIn(body.data),
    );
    // The query, a project's prompts each with 100 searches (it cost about 160 000 and read
    // 1.5 million rows on 50 locales), is now over the default limit: refused before it runs. It read
    // every prompt; a page of prompts is 10 by default now, so it asks for all 500.
    const projectWide =
      'query($id: ID!) { node(id: $id) { ... on AiVisibilityProject { prompts(limit: 500) { data { ' +
      'searchQueries(limit: 100) { locale query runs promptCount visibilityCount visibility } } } } } }';
    expect(operationCost(schema, parse(projectWide), null, { id: projectId }, context)).toBeGreaterThan(
      parseConfig({}).GRAPHQL_MAX_COST,
    );
  });
});
