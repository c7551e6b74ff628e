// `npm run codegen`: typed documents for the operations kept in graphql/operations,
// checked against the committed SDL. Output is generated, not committed.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'graphql/schema.graphql',
  documents: ['graphql/operations/**/*.graphql'],
  generates: {
    'graphql/generated/': {
      preset: 'client',
      config: {
        scalars: {
          Date: 'string',
          DateTime: 'string',
          JSONObject: 'Record<string, unknown>',
          ClientId: 'string',
          ReportId: 'string',
          ProjectId: 'string',
        },
        enumsAsTypes: true,
      },
    },
  },
};

export default config;
