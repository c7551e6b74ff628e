// The kept operations' files (graphql/operations): the web app's, the MCP read tools' and the
// views'. A selection several of them return alike is written once, as a fragment in
// graphql/operations/fragments/, and any operation file may spread it: each operation is read
// as its own document with the fragments it uses, wherever they are defined.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Kind,
  parse,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';

export const OPERATIONS_DIR = fileURLToPath(new URL('../../graphql/operations/', import.meta.url));

const FRAGMENTS_DIR = path.join(OPERATIONS_DIR, 'fragments');

/** Every .graphql file under `dir`, at any depth. */
export function graphqlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? graphqlFiles(full) : entry.name.endsWith('.graphql') ? [full] : [];
  });
}

let shared: readonly FragmentDefinitionNode[] | undefined;

/** The shared fragments (graphql/operations/fragments). */
function sharedFragments(): readonly FragmentDefinitionNode[] {
  shared ??= graphqlFiles(FRAGMENTS_DIR).flatMap((file) =>
    parse(readFileSync(file, 'utf8')).definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION),
  );
  return shared;
}

/**
 * Each operation of these definitions as its own document, with the fragments among them it spreads (and those they
 * spread): what a client sends.
 */
export function operationDocuments(definitions: readonly DefinitionNode[]): DocumentNode[] {
  const fragments = new Map(
    definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  return definitions
    .filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)
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
      return { kind: Kind.DOCUMENT, definitions: [operation, ...used.values()] };
    });
}

/** Each operation of a file as its own document, with the fragments it spreads from the file and the shared ones. */
export function operationFileDocuments(file: string): DocumentNode[] {
  return operationDocuments([...parse(readFileSync(file, 'utf8')).definitions, ...sharedFragments()]);
}

/** The one operation of a file (an MCP tool's, a view's) as its own document. */
export function operationFileDocument(file: string): DocumentNode {
  const documents = operationFileDocuments(file);
  if (documents.length !== 1) throw new Error(`${path.relative(OPERATIONS_DIR, file)}: one operation expected`);
  return documents[0]!;
}
