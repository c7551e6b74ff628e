// A document nested deeper than the parser's stack is refused as a syntax error before parsing,
// with or without a key, never a 500.
import { describe, expect, it } from 'vitest';
import { GraphQLError, parse } from 'graphql';
import { MAX_DOCUMENT_NESTING, nestsDeeperThan, parseWithinNesting } from '../../src/graphql/document-nesting.js';
import { useKeyedApp } from '../support/keyed-app.js';

const keyed = useKeyedApp();

const post = (query: string, headers: Record<string, string> = {}) =>
  keyed.t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    }),
  );

describe('nesting of a /graphql document', () => {
  it('counts ( [ { outside strings, block strings and comments', () => {
    const nested = (n: number) => `{ a(x: ${'['.repeat(n)}1${']'.repeat(n)}) }`;
    expect(nestsDeeperThan(nested(10), 12)).toBe(false);
    expect(nestsDeeperThan(nested(11), 12)).toBe(true);
    expect(nestsDeeperThan(`{ a(x: "${'['.repeat(100)}") }`, 3)).toBe(false);
    expect(nestsDeeperThan(`{ a(x: "\\"${'['.repeat(100)}") }`, 3)).toBe(false);
    expect(nestsDeeperThan(`{ a(x: """ \\""" "" ${'{'.repeat(100)} """) }`, 3)).toBe(false);
    expect(nestsDeeperThan(`# ${'('.repeat(100)}\n{ a }`, 3)).toBe(false);
    // An unterminated string ends at its line: what follows still counts.
    expect(nestsDeeperThan(`{ a(x: "open\n${'['.repeat(10)}`, 3)).toBe(true);
  });

  it('maps a stack overflow inside the parser to the same syntax error', () => {
    const overflowing = parseWithinNesting(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(() => overflowing('{ a }')).toThrow(GraphQLError);
    expect(() => overflowing('{ a }')).toThrow(`Nesting depth limit of ${MAX_DOCUMENT_NESTING} exceeded`);
    expect(parseWithinNesting(parse)('{ a }').kind).toBe('Document');
  });

  it(
    'refuses a deeply nested list literal before parsing, with or without a key, as ' + 'GRAPHQL_PARSE_FAILED',
    async () => {
      const deep = `{ a(x:${'['.repeat(1990)} }`;
      for (const headers of [{}, { authorization: `Bearer ${keyed.key}` }] as Record<string, string>[]) {
        const response = await post(deep, headers);
        expect(response.status).toBe(200);
        expect((await response.json()).errors).toEqual([
          {
            message: `Syntax Error: Nesting depth limit of ${MAX_DOCUMENT_NESTING} exceeded.`,
            extensions: { code: 'GRAPHQL_PARSE_FAILED' },
          },
        ]);
      }
      const spec = await post(deep, {
        authorization: `Bearer ${keyed.key}`,
        accept: 'application/graphql-response+json',
      });
      expect(spec.status).toBe(400);
    },
  );

  it('still runs a document whose comments hold brackets', async () => {
    const body = await (
      await post(`# ${'['.repeat(500)}\n{ viewer { scopes } }`, { authorization: `Bearer ${keyed.key}` })
    ).json();
    expect(body.errors).toBeUndefined();
  });
});
