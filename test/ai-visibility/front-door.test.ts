// ai-visibility/index.ts exports what other features use and nothing more: a name no file outside
// the feature imports is a part of a room, not of the door (test/layers.test.ts holds that others
// come in through it).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC } from '../support/import-graph.js';

const FEATURE = path.join(SRC, 'ai-visibility');
const FRONT_DOOR = path.join(FEATURE, 'index.ts');

const namesIn = (list: string) =>
  list
    .split(',')
    .map((item) =>
      item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim(),
    )
    .filter(Boolean);

/** The names `text` exports (`export { … } from`) or imports (`import { … } from`) from `from`. */
function namesOf(text: string, keyword: 'export' | 'import', from: RegExp): string[] {
  const pattern = new RegExp(`^${keyword}\\s+(?:type\\s+)?\\{([^}]*)\\}\\s*from\\s*'([^']+)'`, 'gm');
  return [...text.matchAll(pattern)].filter((match) => from.test(match[2]!)).flatMap((match) => namesIn(match[1]!));
}

function filesOutside(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (full === FEATURE || name === 'generated') continue;
    if (statSync(full).isDirectory()) filesOutside(full, out);
    else if (full.endsWith('.ts')) out.push(full);
  }
  return out;
}

describe("ai-visibility's front door", () => {
  it('exports only names that files of other features import from it', () => {
    const exported = namesOf(readFileSync(FRONT_DOOR, 'utf8'), 'export', /^\.\//);
    const used = new Set(
      filesOutside(SRC).flatMap((file) =>
        namesOf(readFileSync(file, 'utf8'), 'import', /(^|\/)ai-visibility\/index\.js$/),
      ),
    );
    expect(exported.length).toBeGreaterThan(40);
    expect(exported.filter((name) => !used.has(name))).toEqual([]);
  });

  it('reads the names of both kinds of list (the check above can fail)', () => {
    const door = "export { a, type B } from './x.js';\nexport type { C as D } from './y.js';";
    expect(namesOf(door, 'export', /^\.\//)).toEqual(['a', 'B', 'D']);
    const user = "import {\n  a,\n  type D,\n} from '../ai-visibility/index.js';\nimport { e } from './e.js';";
    expect(namesOf(user, 'import', /(^|\/)ai-visibility\/index\.js$/)).toEqual(['a', 'D']);
  });
});
