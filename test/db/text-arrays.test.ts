import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseTextArray } from '../../src/db/text-arrays.js';
import { connectDatabase } from '../../src/db/client.js';
import { createTestDatabase } from '../support/database.js';

// postgres-array, pg's own parser, itself (pg.types would give ours back once db/client is imported).
const { parse: reference } = createRequire(import.meta.url)('postgres-array') as {
  parse: (text: string) => (string | null)[];
};

// Elements PostgreSQL must quote (delimiters, braces, quotes, backslashes, white space, empty, the word
// NULL) among plain ones.
const element = fc.oneof(
  fc.constantFrom(
    'google_ads',
    'meta_ads',
    'gpt-4o',
    'en-US',
    'example.com',
    'NULL',
    'null',
    '',
    ' ',
    'a,b',
    '{x}',
    'say "hi"',
    'back\\slash',
    'tab\there',
    'naïve — ü',
  ),
  fc.string({ unit: fc.constantFrom('a', 'Z', '9', '-', '.', '_', ',', '{', '}', '"', '\\', ' ', 'N', 'U', 'L', 'é') }),
  fc.constant(null),
);

describe('parseTextArray', () => {
  it('reads what PostgreSQL writes for any text[] exactly as pg does, or declines it', async () => {
    const database = connectDatabase(await createTestDatabase(), 1);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(element, { maxLength: 6 }), async (array) => {
          const { rows } = await database.pool.query<{ text: string; parsed: (string | null)[] }>(
            'SELECT $1::text[]::text AS text, $1::text[] AS parsed',
            [array],
          );
          const { text, parsed } = rows[0]!;
          // Through the pool (our parser, with pg's behind it) the array comes back as sent.
          expect(parsed).toEqual(array);
          const ours = parseTextArray(text);
          if (ours) expect(ours).toEqual(reference(text));
          // Declined only when an element had to be quoted.
          expect(ours === null).toBe(text.includes('"'));
        }),
        { numRuns: 400 },
      );
    } finally {
      await database.close();
    }
  });

  it('declines shapes other than a one-dimensional array', () => {
    for (const text of ['{{a,b},{c,d}}', '[0:1]={a,b}', '{"a b",c}', '{a\\,b}', 'a,b', '{', ''])
      expect(parseTextArray(text)).toBeNull();
    expect(parseTextArray('{}')).toEqual([]);
    expect(parseTextArray('{a,NULL,b}')).toEqual(['a', null, 'b']);
  });
});
