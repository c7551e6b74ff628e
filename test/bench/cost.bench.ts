// The per-request price of the GraphQL cost check and of the response byte cap, on the web app's
// ProjectAnswers (its trusted operation) and on a page of answers: `npm run bench:cost`.
// Compared: @pothos/plugin-complexity (chosen: it reads the cost each field declares in the
// schema, with the coerced variables) and graphql-query-complexity's getComplexity.
import { parse } from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { schema } from '../../src/graphql/schema.js';
import { operationCost } from '../../src/graphql/cost.js';
import { loadTrustedOperations } from '../../src/graphql/trusted-operations.js';
import { parseConfig } from '../../src/config/index.js';
import { pathOverSize } from '../../src/http/response-size.js';

const context = { config: parseConfig({}) } as never;
const text = [...loadTrustedOperations().values()].find((candidate) => candidate.includes('query ProjectAnswers'))!;
const document = parse(text);
const variables = { id: 'prj_0123456789abcdef', answersPerPrompt: 3 };

function time(label: string, run: () => unknown, rounds = 20_000): void {
  for (let i = 0; i < 2_000; i++) run();
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) run();
  const micros = Number(process.hrtime.bigint() - started) / 1000 / rounds;
  console.log(`${label.padEnd(58)} ${micros.toFixed(2).padStart(8)} µs`);
}

console.log(`ProjectAnswers cost (pothos): ${operationCost(schema, document, 'ProjectAnswers', variables, context)}`);
time('ProjectAnswers, @pothos/plugin-complexity', () => operationCost(schema, document, 'ProjectAnswers', variables, context));
// The same declarations read by graphql-query-complexity (its own estimator signature differs).
type Declared = number | { field?: number; multiplier?: number } | ((args: unknown, ctx: unknown, field: unknown) => number | { field?: number; multiplier?: number });
const declared: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const option = field.extensions?.complexity as Declared | undefined;
  const value = typeof option === 'function' ? option(args, context, field) : option;
  if (typeof value === 'number') return value + childComplexity;
  return (value?.field ?? 1) + (value?.multiplier ?? 1) * childComplexity;
};
console.log(`ProjectAnswers cost (graphql-query-complexity): ${getComplexity({ schema, query: document, variables, operationName: 'ProjectAnswers', estimators: [declared] })}`);
time('ProjectAnswers, graphql-query-complexity', () => getComplexity({ schema, query: document, variables, operationName: 'ProjectAnswers', estimators: [declared] }));

// A v1-sized answer: a page of 100 answers of ~2 KB text with their citations.
const answer = (i: number) => ({ id: `ans_${i}`, promptId: 'pmt_1', prompt: 'Which CRM is best for a small agency?', date: '2026-11-01', model: 'chatgpt', locale: 'en-US', text: 'x'.repeat(2000), brandMentions: 2, totalMentions: 5, position: 1, sentiment: 'positive', competitors: [{ name: 'Acme', mentions: 1, position: 2 }], citations: Array.from({ length: 5 }, (_, c) => ({ position: c + 1, url: `https://example.com/${c}`, domain: 'example.com', title: 'A page' })) });
const page = { data: Array.from({ length: 100 }, (_, i) => answer(i)), meta: { total: 1000, truncated: true, nextCursor: 'abc' } };
time('100 answers: pathOverSize under a 16 MB cap', () => pathOverSize(page, 16 * 1024 * 1024), 5_000);
time('100 answers: JSON.stringify (what the door does anyway)', () => JSON.stringify(page), 5_000);
