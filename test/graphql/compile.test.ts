// Compiled operations leave enum values as the resolvers give them (src/graphql/compile.ts), so
// no enum may stand for another value: the schema's own, and what the guard refuses.
import { describe, expect, it } from 'vitest';
import { GraphQLEnumType, GraphQLObjectType, GraphQLSchema, parse } from 'graphql';
import { schema } from '../../src/graphql/schema.js';
import { assertEnumsLeaveByName, compileOperation } from '../../src/graphql/compile.js';

const schemaWith = (kind: GraphQLEnumType) =>
  new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { kind: { type: kind, resolve: () => 'api_key' } } }),
  });

describe('enums of compiled operations', () => {
  it('the graph has none that stands for another value', () => {
    expect(() => assertEnumsLeaveByName(schema)).not.toThrow();
  });

  it('an enum whose value stands for something else stops the compilation', () => {
    const renamed = schemaWith(new GraphQLEnumType({ name: 'Kind', values: { API_KEY: { value: 'api_key' } } }));
    expect(() => compileOperation(renamed, parse('{ kind }'), 'test operation')).toThrow(
      /Kind: API_KEY stands for "api_key"/,
    );
  });

  it('leaves a value as the resolver gave it: the resolvers answer for their leaves', async () => {
    const named = schemaWith(new GraphQLEnumType({ name: 'Kind', values: { API_KEY: {} } }));
    const compiled = compileOperation(named, parse('{ kind }'), 'test operation');
    expect(await compiled.query(undefined, {}, {})).toEqual({ data: { kind: 'api_key' } });
  });
});
