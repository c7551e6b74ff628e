// The import graph of src/ (value and type imports, static and dynamic), read from the files:
// what test/layers.test.ts holds against the layer rules in ARCHITECTURE.md; and what loading one
// file loads with it (test/startup-imports.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'generated') sourceFiles(full, out);
    } else if (full.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Each file of src/ (relative, e.g. "graphql/context.ts") and the src/ files it imports. */
export function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:^(?:import|export)\s[^;]*?from\s+|import\()\s*'(\.[^']+)'/gms)]
      .map((match) => path.join(path.dirname(file), match[1]!).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target))
      .map((target) => path.relative(SRC, target));
    graph.set(path.relative(SRC, file), [...new Set(targets)]);
  }
  return graph;
}

/**
 * What loading `entry` loads with it: the src/ files and the packages (each with the first file
 * importing it) reached by static value imports only — type imports are erased, import() waits.
 */
export function loadedAtStart(entry: string) {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(path.join(SRC, file), 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'|^import\s+'([^']+)'/gms)) {
      const specifier = match[1] ?? match[2]!;
      if (specifier.startsWith('.')) {
        const target = path
          .relative(SRC, path.join(path.dirname(path.join(SRC, file)), specifier))
          .replace(/\.js$/, '.ts');
        if (statSync(path.join(SRC, target), { throwIfNoEntry: false })?.isFile()) visit(target);
      } else if (!packages.has(specifier)) packages.set(specifier, file);
    }
  };
  visit(entry);
  return { files, packages };
}

/** Strongly connected components of more than one file: the import cycles. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}
