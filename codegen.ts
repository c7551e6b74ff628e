// `npm run codegen`: typed documents and the persisted-operations manifest for the
// operations kept in graphql/operations, checked against the committed SDL. Output is
// generated, not committed.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'graphql/schema.graphql',
  documents: ['graphql/operations/**/*.graphql'],
  generates: {
    'graphql/generated/': {
      preset: 'client',
      // persisted-documents.json: sha256 → document, the ids the web app sends instead of
      // query text. The server derives the same manifest (src/graphql/trusted-operations.ts).
      presetConfig: { persistedDocuments: { hashAlgorithm: 'sha256' } },
      config: {
        scalars: {
          Date: 'string',
          DateTime: 'string',
          JSONObject: 'Record<string, unknown>',
          ClientId: 'string',
          ReportId: 'string',
          ProjectId: 'string',
          Scope: 'string',
        },
        enumsAsTypes: true,
      },
    },
  },
};

export default config;
