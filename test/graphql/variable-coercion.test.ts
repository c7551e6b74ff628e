// A list variable of bad items is refused without looking at every item: the cost estimate runs
// before execution and coerces the variables itself, and without a cap each bad item made an
// error (90 000 nulls held the event loop for seconds, for every workspace).
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';
import { operationCost, VARIABLE_ERRORS_CAP } from '../../src/graphql/cost.js';
import type { GraphQLContext } from '../../src/graphql/context.js';

/** An array of `length` nulls that counts how many of its items are read. */
function countedNulls(length: number) {
  const read = { items: 0 };
  const items = new Proxy(new Array(length).fill(null), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) read.items++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { items, read };
}

describe('the cost of an operation whose variables do not coerce', () => {
  it("is 0 (the execution refuses them) after at most the execution's own error cap of items", () => {
    const { items, read } = countedNulls(100_000);
    const document = parse('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }');
    expect(operationCost(schema, document, null, { ids: items }, {} as GraphQLContext)).toBe(0);
    expect(read.items).toBeGreaterThan(0);
    expect(read.items).toBeLessThanOrEqual(VARIABLE_ERRORS_CAP + 1);
  });
});
