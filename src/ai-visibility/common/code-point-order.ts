/**
 * Code-point order, the tie-break of every list and the order of names in payloads (PostgreSQL's
 * "C" collation agrees). `<` and a bare `.sort()` compare UTF-16 units, where a character past
 * U+FFFF (a surrogate pair, D800–DFFF) sorts before U+E000–U+FFFF: those units are ranked as the
 * code points they stand for.
 */
const codePointRank = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;

export function byCodePoint(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const [x, y] = [a.charCodeAt(index), b.charCodeAt(index)];
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}
