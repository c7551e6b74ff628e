import { describe, expect, it } from 'vitest';
import { lazyRecord } from '../../src/graphql/lazily.js';

describe('lazyRecord', () => {
  it('makes each member from its own env on first use, once, and never the members not asked for', () => {
    const made: string[] = [];
    const make = lazyRecord<{ name: string }>()({
      greeting: ({ name }) => (made.push(`greeting:${name}`), { text: `hello ${name}` }),
      farewell: ({ name }) => (made.push(`farewell:${name}`), { text: `bye ${name}` }),
    });
    const ada = make({ name: 'Ada' });
    const bob = make({ name: 'Bob' });
    expect(made).toEqual([]);
    expect(ada.greeting.text).toBe('hello Ada');
    expect(ada.greeting).toBe(ada.greeting);
    expect(bob.greeting.text).toBe('hello Bob');
    expect(bob.greeting).not.toBe(ada.greeting);
    expect(made).toEqual(['greeting:Ada', 'greeting:Bob']);
  });

  it('keeps a member whose factory gave a falsy value', () => {
    let calls = 0;
    const make = lazyRecord<null>()({ nothing: () => (calls++, 0) });
    const record = make(null);
    expect([record.nothing, record.nothing]).toEqual([0, 0]);
    expect(calls).toBe(1);
  });
});
