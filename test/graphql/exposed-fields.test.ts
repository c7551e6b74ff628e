// A field that only reads a property of its parent is exposed (`t.expose…`), never given a
// one-line `resolve`: graphql-jit reads an exposed property in place but builds resolve info for
// every resolver call (docs/development.md, "Performance decisions"; test/bench/README.md measured it on every list).
import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';

/** `(x) => x.name`, `x => x.name ?? null`, with or without a cast: a property read dressed as a resolver. */
const readsOneProperty = (resolve: (...args: never[]) => unknown) =>
  /^\(?(\w+)\)?\s*=>\s*\1\.\w+(\s*\?\?\s*null)?\s*$/.test(resolve.toString().trim());

describe('exposed fields', () => {
  it('no field of the schema resolves by reading one property of its parent', () => {
    const found: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields()))
        if (field.resolve && readsOneProperty(field.resolve)) found.push(`${type.name}.${field.name}`);
    }
    expect(found).toEqual([]);
  });

  it('recognises such a resolver, and not one that computes', () => {
    expect(readsOneProperty((signal: { model: string }) => signal.model)).toBe(true);
    expect(readsOneProperty((row: { limit?: number }) => row.limit ?? null)).toBe(true);
    expect(readsOneProperty((row: { name: string }) => row.name.toUpperCase())).toBe(false);
    expect(readsOneProperty((row: { a: number; b: number }) => row.a + row.b)).toBe(false);
  });
});
