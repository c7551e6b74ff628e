// The layers of src/ point one way (ARCHITECTURE.md): kernel ← features ← GraphQL ← doors, and
// no file imports itself back through others (type imports count: they couple the files too).
// A file's layer is its top-level folder's; a GraphQL type file (*.type.ts) is GraphQL wherever it
// lives, and the files at the top of src/ are the composition roots, which sit with the doors.
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from './support/import-graph.js';

const KERNEL = /^(config|db|errors|dates|secrets|http|mail|observability)\//;
const DOORS = /^(doors|rest|mcp|settings|cli)\/|^[^/]+\.ts$/;
const GRAPHQL = /^graphql\/|\.type\.ts$/;
const LAYERS = ['kernel', 'feature', 'graphql', 'door'] as const;

export const layerOf = (file: string) => (DOORS.test(file) ? 3 : KERNEL.test(file) ? 0 : GRAPHQL.test(file) ? 2 : 1);

/** Every import from a lower layer to a higher one, as "from (layer) → to (layer)". */
export function upwardImports(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets)
      if (layerOf(to) > layerOf(from))
        found.push(`${from} (${LAYERS[layerOf(from)]}) → ${to} (${LAYERS[layerOf(to)]})`);
  }
  return found;
}

// Folders whose files anyone may import directly: the kernel, and the GraphQL layer's own folder.
const OPEN_FOLDERS = new Set([
  'config',
  'db',
  'errors',
  'dates',
  'secrets',
  'http',
  'mail',
  'observability',
  'graphql',
]);
// Composition roots wire the features together (and load some lazily); schema.ts registers every type file.
const ROOTS = /^[^/]+\.ts$|^cli\/|^graphql\/schema\.ts$/;
const folderOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : null);

/** Imports into another feature folder that do not go through its index.ts front door. */
export function frontDoorBypasses(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    if (ROOTS.test(from)) continue;
    for (const to of targets) {
      const folder = folderOf(to);
      if (
        !folder ||
        folder === folderOf(from) ||
        OPEN_FOLDERS.has(folder) ||
        to.endsWith('.type.ts') ||
        to === `${folder}/index.ts`
      )
        continue;
      found.push(`${from} → ${to}`);
    }
  }
  return found;
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('is read from the files (a sanity check that the reader sees the imports)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('app.ts')).toEqual(
      expect.arrayContaining(['graphql/schema.ts', 'rest/index.ts', 'doors/routes.ts']),
    );
  });

  it('has no cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no upward import: kernel ← features ← GraphQL types and resolvers ← doors', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it("features meet only at their front doors: another feature's files are reached through its index.ts", () => {
    expect(frontDoorBypasses(graph)).toEqual([]);
  });

  it('the worker process loads none of the web app (its own composition root)', () => {
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of graph.get(file) ?? []) visit(next);
    };
    visit('webhooks/worker-main.ts');
    expect(reached.has('webhooks/worker.ts')).toBe(true);
    expect(
      [...reached].filter((file) => /^(app|runtime)\.ts$|^(graphql|doors|rest|mcp|settings)\//.test(file)),
    ).toEqual([]);
  });

  it('the checks find what they look for (a graph with a cycle and an upward import)', () => {
    const broken = new Map([
      ['db/per-parent.ts', ['graphql/envelope.ts']],
      ['graphql/envelope.ts', ['db/per-parent.ts']],
      ['reports/repository.ts', ['rest/handler.ts']],
      ['rest/handler.ts', []],
    ]);
    expect(cycles(broken)).toEqual([['db/per-parent.ts', 'graphql/envelope.ts']]);
    expect(upwardImports(broken)).toEqual([
      'db/per-parent.ts (kernel) → graphql/envelope.ts (graphql)',
      'reports/repository.ts (feature) → rest/handler.ts (door)',
    ]);
    expect(
      frontDoorBypasses(new Map([['sso/oidc.ts', ['sessions/login.ts', 'sessions/index.ts', 'db/ids.ts']]])),
    ).toEqual(['sso/oidc.ts → sessions/login.ts']);
  });
});
