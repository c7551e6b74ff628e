// The web app's trusted operations: every operation kept under graphql/operations, by the
// sha256 of its normalised text — the same ids `npm run codegen` writes to
// persisted-documents.json for the client. Derived from the .graphql files at start, so the
// server needs no generated file and cannot disagree with what the client was built from.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getOperationAST, Kind, parse, visit, type DefinitionNode, type DocumentNode, type FragmentDefinitionNode } from 'graphql';
import { printExecutableGraphQLDocument } from '@graphql-tools/documents';

export const OPERATIONS_DIR = fileURLToPath(new URL('../../graphql/operations/', import.meta.url));

function graphqlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? graphqlFiles(full) : entry.name.endsWith('.graphql') ? [full] : [];
  });
}

/** Each operation with the fragments it uses, as its own document (what a client sends). */
function operationDocuments(definitions: readonly DefinitionNode[]) {
  const fragments = new Map(definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  return definitions
    .filter((definition) => definition.kind === Kind.OPERATION_DEFINITION)
    .map((operation) => {
      const used = new Map<string, FragmentDefinitionNode>();
      const collect = (node: DefinitionNode) =>
        visit(node, {
          FragmentSpread(spread) {
            const fragment = fragments.get(spread.name.value);
            if (fragment && !used.has(fragment.name.value)) {
              used.set(fragment.name.value, fragment);
              collect(fragment);
            }
          },
        });
      collect(operation);
      return { kind: Kind.DOCUMENT, definitions: [operation, ...used.values()] } as const;
    });
}

/** sha256 (hex) → document text, for every kept operation. */
export function loadTrustedOperations(dir = OPERATIONS_DIR): Map<string, string> {
  const definitions = graphqlFiles(dir).flatMap((file) => parse(readFileSync(file, 'utf8')).definitions);
  return new Map(
    operationDocuments(definitions).map((document) => {
      const text = printExecutableGraphQLDocument(document);
      return [createHash('sha256').update(text).digest('hex'), text];
    }),
  );
}

/** Whether the operation `operationName` of `document`, sent by hash or as text, is one of the manifest's. */
export function isTrustedOperation(manifestTexts: ReadonlySet<string>, document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  const own = operationDocuments(document.definitions).find((candidate) => candidate.definitions[0] === operation);
  return own !== undefined && manifestTexts.has(printExecutableGraphQLDocument(own));
}

/** The names of the operations in a manifest (the web app's own). */
export function operationNames(manifest: ReadonlyMap<string, string>): ReadonlySet<string> {
  return new Set([...manifest.values()].flatMap((text) => [...text.matchAll(/\b(?:query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!)));
}
