// The web app's trusted operations: every operation kept under graphql/operations, by the
// sha256 of its normalised text — the same ids `npm run codegen` writes to
// persisted-documents.json for the client. Derived from the .graphql files at start, so the
// server needs no generated file and cannot disagree with what the client was built from.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getOperationAST, parse, type DocumentNode } from 'graphql';
import { printExecutableGraphQLDocument } from '@graphql-tools/documents';
import { graphqlFiles, operationDocuments, OPERATIONS_DIR } from './operation-files.js';

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
export function isTrustedOperation(
  manifestTexts: ReadonlySet<string>,
  document: DocumentNode,
  operationName: string | null | undefined,
): boolean {
  const operation = getOperationAST(document, operationName);
  const own = operationDocuments(document.definitions).find((candidate) => candidate.definitions[0] === operation);
  return own !== undefined && manifestTexts.has(printExecutableGraphQLDocument(own));
}

/** The names of the operations in a manifest (the web app's own). */
export function operationNames(manifest: ReadonlyMap<string, string>): ReadonlySet<string> {
  return new Set(
    [...manifest.values()].flatMap((text) =>
      [...text.matchAll(/\b(?:query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!),
    ),
  );
}
