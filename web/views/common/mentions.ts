// Where an answer names the brand or a competitor, for marking in its text. Pure: the marks a
// view draws are bounded whatever the names and the text (a one-letter brand over a long answer
// would otherwise mark every letter: millions of elements on one page).

/** At most this many names are marked in one answer; the rest of its text stays plain. */
export const MARKS_PER_ANSWER = 100;

export interface Mention {
  start: number;
  end: number;
  kind: 'brand' | 'competitor';
}

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A name counts as a whole word: no letter, digit or combining mark right before or after it
// ("Acme" in "Acme's" and "ACME," but not in "Acmeville"; "A" as a word, not the a in "bay").
const WORD_CHARACTER = '[\\p{L}\\p{N}\\p{M}_]';

/** The first `cap` mentions of the names in the text, in order (the longer name where two start together). */
export function findMentions(
  text: string,
  brand: string | undefined,
  competitors: string[],
  cap = MARKS_PER_ANSWER,
): { mentions: Mention[]; capped: boolean } {
  const trimmed = [brand, ...competitors].map((name) => name?.trim());
  const names = [...new Set(trimmed.filter((name): name is string => Boolean(name)))];
  if (!names.length || cap <= 0) return { mentions: [], capped: false };
  const brandKey = brand?.trim().toLowerCase();
  const alternatives = names
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  const pattern = new RegExp(`(?<!${WORD_CHARACTER})(?:${alternatives})(?!${WORD_CHARACTER})`, 'giu');
  const mentions: Mention[] = [];
  for (const match of text.matchAll(pattern)) {
    if (mentions.length === cap) return { mentions, capped: true };
    const kind = match[0].toLowerCase() === brandKey ? 'brand' : 'competitor';
    mentions.push({ start: match.index, end: match.index + match[0].length, kind });
  }
  return { mentions, capped: false };
}
