// The marks an answer gets and the size a view asks its host for: pure rules, bounded whatever
// the names, the text and the page.
import { describe, expect, it } from 'vitest';
import { findMentions, MARKS_PER_ANSWER } from '../../web/views/common/mentions.js';
import { requestedSize } from '../../web/views/common/bridge.js';

const marked = (text: string, brand: string, competitors: string[] = []) =>
  findMentions(text, brand, competitors).mentions.map(({ start, end, kind }) => `${kind}:${text.slice(start, end)}`);

describe('mentions in an answer', () => {
  it('are whole words, any case, the longer name first where two start together', () => {
    expect(marked("Acme, ACME's and Acmeville; Acme Pro beats acme.", 'Acme', ['Acme Pro'])).toEqual([
      'brand:Acme',
      'brand:ACME',
      'competitor:Acme Pro',
      'brand:acme',
    ]);
    expect(marked('A bay, a day: Äa', 'A')).toEqual(['brand:A', 'brand:a']);
    expect(marked('Crème brûlée and crème', 'Crème')).toEqual(['brand:Crème', 'brand:crème']);
  });

  it('stop at the cap per answer, and say so', () => {
    const found = findMentions('A '.repeat(50_000), 'A', []);
    expect(found.mentions).toHaveLength(MARKS_PER_ANSWER);
    expect(found.capped).toBe(true);
    expect(findMentions('A '.repeat(MARKS_PER_ANSWER), 'A', []).capped).toBe(false);
  });

  it('take names as text, not patterns', () => {
    expect(marked('C++ and C# and Cx', 'C++', ['C#'])).toEqual(['brand:C++', 'competitor:C#']);
  });
});

describe('the size a view asks for', () => {
  it('is never wider than its frame nor taller than the host offers', () => {
    expect(requestedSize(139_410, 390, { width: 390, maxHeight: 3_000 })).toEqual({ width: 390, height: 3_000 });
    expect(requestedSize(800, 1_200, { maxWidth: 700 })).toEqual({ width: 700, height: 800 });
    expect(requestedSize(800.2, 390.5)).toEqual({ width: 391, height: 801 });
  });
});
