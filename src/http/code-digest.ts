// A digest of the code this process runs: its own compiled (or, under tsx, source) modules and the
// dependency lock beside them. An ETag derived from an answer's inputs instead of its bytes
// (representation.ts `inputsEtag`) includes it, so that a deploy which renders the same inputs
// differently never answers 304 for bytes the client does not hold.
import { hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const codeRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lockFile = path.join(codeRoot, '..', 'package-lock.json');
const CODE_FILE = /\.(js|ts|mjs|cjs|json|graphql)$/;

function codeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) return codeFiles(full);
      return CODE_FILE.test(entry.name) ? [full] : [];
    });
}

/** The digest of every code file under `root` (names and contents) and of `lock` when it exists. */
export function digestOfTree(root: string, lock: string): string {
  const parts = codeFiles(root).map((file) => `${path.relative(root, file)}\n${hash('sha1', readFileSync(file))}`);
  if (existsSync(lock)) parts.push(hash('sha1', readFileSync(lock)));
  return hash('sha1', parts.join('\n'), 'base64url');
}

let digest: string | undefined;

/** This process's code, read once, on the first answer that needs it (a few milliseconds for the whole tree). */
export const codeDigest = (): string => (digest ??= digestOfTree(codeRoot, lockFile));
