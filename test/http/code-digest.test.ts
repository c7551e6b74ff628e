// The code digest that ETags named by their inputs carry: any change to a code file or the lock
// changes it, so a deploy that renders the same inputs differently never revalidates old bytes.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeDigest, digestOfTree } from '../../src/http/code-digest.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

function tree(files: Record<string, string>) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'code-digest-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, 'src', name)), { recursive: true });
    writeFileSync(path.join(root, 'src', name), text);
  }
  return { src: path.join(root, 'src'), lock: path.join(root, 'package-lock.json') };
}

describe('digestOfTree', () => {
  it('moves with a file’s contents, a file’s name, a new file and the lock, and with nothing else', () => {
    const base = { 'a.js': 'export const a = 1;', 'rest/b.js': 'export const b = 2;' };
    const { src, lock } = tree(base);
    const digest = digestOfTree(src, lock);
    expect(digestOfTree(src, lock)).toBe(digest);
    expect(digestOfTree(tree({ ...base, 'notes.md': 'not code' }).src, lock)).toBe(digest);

    expect(digestOfTree(tree({ ...base, 'a.js': 'export const a = 2;' }).src, lock)).not.toBe(digest);
    expect(digestOfTree(tree({ 'a2.js': base['a.js'], 'rest/b.js': base['rest/b.js'] }).src, lock)).not.toBe(digest);
    expect(digestOfTree(tree({ ...base, 'c.js': '' }).src, lock)).not.toBe(digest);
    writeFileSync(lock, '{"lockfileVersion":3}');
    expect(digestOfTree(src, lock)).not.toBe(digest);
  });

  it("is this process's, read once", () => {
    expect(codeDigest()).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(codeDigest()).toBe(codeDigest());
  });
});
