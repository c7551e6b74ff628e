import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orderedMembers, stringSetId } from '../../../src/ai-visibility/common/string-sets.js';

describe('stringSetId', () => {
  it('is the first 16 bytes of SHA-256 over the keys in code-point order, each as "<bytes>:<key>"', () => {
    const expected = createHash('sha256').update('1:a1:b8:Ａ wide10:😀 emoji').digest('hex').slice(0, 32);
    expect(stringSetId(['b', '\u{1F600} emoji', 'a', '\uFF21 wide'])!.replaceAll('-', '')).toBe(expected);
  });

  it('names a set, not an order or repeats, and tells apart members that would run together', () => {
    expect(stringSetId(['x', 'y'])).toBe(stringSetId(['y', 'x', 'y']));
    expect(stringSetId(['ab', 'c'])).not.toBe(stringSetId(['a', 'bc']));
    expect(stringSetId(['1:a'])).not.toBe(stringSetId(['a', ':a']));
    expect(stringSetId(['x'])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('has no id for an empty set', () => {
    expect(stringSetId([])).toBeNull();
  });

  it('orders members by code point, once each (bytes), not UTF-16 units', () => {
    expect(orderedMembers(['b', '\u{1F600} emoji', 'a', '\uFF21 wide', 'a'])).toEqual([
      'a',
      'b',
      '\uFF21 wide',
      '\u{1F600} emoji',
    ]);
  });
});
