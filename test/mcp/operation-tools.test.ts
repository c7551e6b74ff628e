// How GraphQL operations become MCP tool schemas: the input enums said as patterns stay exact.
import { buildSchema, type GraphQLEnumType } from 'graphql';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENUM_PATTERNS } from '../../src/mcp/tools/operation-schemas.js';

describe('input enums said as patterns', () => {
  it('match exactly the values of their GraphQL enum', () => {
    const schema = buildSchema(readFileSync('graphql/schema.graphql', 'utf8'));
    for (const [name, pattern] of Object.entries(ENUM_PATTERNS)) {
      const values = (schema.getType(name) as GraphQLEnumType).getValues().map((value) => value.name);
      const regex = new RegExp(pattern);
      for (const value of values) expect(regex.test(value), value).toBe(true);
      // Nothing else of the shape: every combination the pattern allows is a value.
      const allowed = [
        'today',
        'yesterday',
        ...['this', 'last'].flatMap((when) => ['week', 'month', 'quarter', 'year'].map((unit) => `${when}_${unit}`)),
        ...[7, 14, 28, 30, 90, 365].map((days) => `last_${days}_days`),
      ];
      expect(allowed.filter((value) => regex.test(value)).sort()).toEqual([...values].sort());
    }
  });
});
