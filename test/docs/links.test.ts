// Every relative link of README.md and docs/ leads to a file of the repository (and an #anchor
// to a heading of it): a reader of a fresh clone never follows a link into nothing.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, headingAnchors, relativeLinks, REPOSITORY } from './markdown.js';

describe('links in the documentation', () => {
  for (const file of documentationFiles()) {
    it(`${file}: every relative link resolves inside the repository`, () => {
      const text = readFileSync(path.join(REPOSITORY, file), 'utf8');
      const broken: string[] = [];
      for (const { target, line } of relativeLinks(text)) {
        const [pathPart, anchor] = target.split('#') as [string, string | undefined];
        const resolved = pathPart
          ? path.resolve(REPOSITORY, path.dirname(file), decodeURI(pathPart))
          : path.join(REPOSITORY, file);
        if (!resolved.startsWith(REPOSITORY + path.sep) || !existsSync(resolved)) {
          broken.push(`${file}:${line} ${target} (no such file in the repository)`);
          continue;
        }
        if (
          anchor &&
          resolved.endsWith('.md') &&
          statSync(resolved).isFile() &&
          !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)
        ) {
          broken.push(`${file}:${line} ${target} (no heading #${anchor})`);
        }
      }
      expect(broken).toEqual([]);
    });
  }

  it('names no path outside the repository', () => {
    const outside = documentationFiles().filter(
      (file) => readFileSync(path.join(REPOSITORY, file), 'utf8').match(/\.\.\/shared\//) !== null,
    );
    expect(outside).toEqual([]);
  });
});
