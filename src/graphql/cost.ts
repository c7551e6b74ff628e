// What a query costs before it runs, computed by @pothos/plugin-complexity from the fields'
// declared costs and the operation's coerced variables — so `first: $n` with n = 100 costs what
// `first: 100` costs. Each field costs 1 (an answer's text more); a list's selection counts as
// many times as its statement can return rows: its requested size (first, limit, the ids of
// nodes) times the locales or models it returns them for, or its cap when the list takes no
// size. graphql-armor's cost limit, which this replaces, read only the document: sizes in
// variables and the 500-row lists (a project's prompts) counted once.
import { complexityFromQuery } from '@pothos/plugin-complexity';
import { getOperationAST, getVariableValues, GraphQLError, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import { ApiError } from '../errors/index.js';
import type { GraphQLContext } from './context.js';

/**
 * Lists that declare nothing: the catalog's own lists and a key's scopes, all shorter. Every list
 * whose length depends on data declares the most rows its statement can return (`bounded`,
 * `sizedList`), multiplied out where rows come per locale or per model
 * (test/graphql/cost-counts-rows.test.ts runs random queries and compares).
 */
export const DEFAULT_LIST_SIZE = 10;

/**
 * An answer's text, the one long field: typically 1–3 KB where a field is tens of bytes. What this
 * estimate gets wrong is bounded by the bytes of answers a request may read (answer-repository.ts)
 * and the response byte cap (http/response-size.ts).
 */
export const ANSWER_TEXT_COST = 20;

/** A list of at most `rows` items, whatever the arguments. */
export const bounded = (rows: number) => ({ field: 1, multiplier: rows });

/**
 * A list of `requested` items (or `fallback` when not asked), never counted above `cap`: the
 * resolver refuses more itself, naming the argument; `per` times that when the size is per
 * locale (a project's search queries: `limit` per locale).
 */
export const sizedList = (requested: number | null | undefined, fallback: number, cap: number, per = 1) =>
  bounded(Math.max(0, Math.min(requested ?? fallback, cap)) * per);

/** A list whose items were already counted where its size was asked (a connection's nodes, a page's data). */
export const COUNTED_BY_PARENT = { field: 1, multiplier: 1 } as const;

/** graphql-js execution's own cap on variable coercion errors (maxCoercionErrors). */
export const VARIABLE_ERRORS_CAP = 50;

/** The cost of running `document` (its operation `operationName`) with `variables`. */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  context: GraphQLContext,
): number {
  const operation = getOperationAST(document, operationName);
  if (!operation) return 0;
  // Variables that do not coerce cost nothing: the execution refuses them, naming the variable. The
  // check stops at the execution's own error cap: the library coerces without one, and a list of
  // 90 000 bad items made as many errors, holding the event loop for seconds.
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, {
    maxErrors: VARIABLE_ERRORS_CAP,
  });
  if (coerced.errors) return 0;
  // The library takes a document's first operation: hand it the one that runs, with its fragments.
  const fragments = document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
  try {
    return complexityFromQuery(
      { kind: Kind.DOCUMENT, definitions: [operation, ...fragments] },
      { schema, ctx: context, variables: variables ?? {} },
    ).complexity;
  } catch (error) {
    // What the library still cannot take (an argument it coerces itself): the execution refuses it, naming it.
    if (error instanceof GraphQLError && !(error instanceof ApiError)) return 0;
    throw error;
  }
}

/**
 * What one of the web app's trusted operations may cost: what it costs with its own default
 * sizes. They were written for the web app's pages, and a page nests capped lists (a client's
 * reports under the clients) whose product, counted at the caps, passes any useful limit; asking
 * one for more than its defaults (ProjectAnswers with answersPerPrompt: 100) is held to the limit.
 */
export function defaultSizesCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  context: GraphQLContext,
): number {
  const operation = getOperationAST(document, operationName);
  const sizes = new Set(
    operation?.variableDefinitions
      ?.filter((definition) => definition.type.kind === Kind.NAMED_TYPE && definition.type.name.value === 'Int')
      .map((definition) => definition.variable.name.value),
  );
  const withDefaults = Object.fromEntries(Object.entries(variables ?? {}).filter(([name]) => !sizes.has(name)));
  return operationCost(schema, document, operationName, withDefaults, context);
}

/** The refusal of a query over the limit, before anything runs. */
export const queryTooComplex = (cost: number, limit: number) =>
  new ApiError(
    'query_too_complex',
    `This query costs ${cost} and the limit is ${limit}. ` +
      'Every list counts at its requested size (first, limit, the ids of nodes) or at its cap when it takes none ' +
      "(a project's prompts: up to 500), times 50 locales where its rows come per locale (unless locale names one), " +
      'times the fields under it. Ask for fewer items, one locale or fewer fields, or page.',
  );
