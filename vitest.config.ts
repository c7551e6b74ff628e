import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// graphql ships CJS and ESM builds; Pothos and Yoga load one, our code the other unless
// every import resolves to the same file (graphql's instanceof checks need one copy).
const graphqlEntry = createRequire(import.meta.url).resolve('graphql');

export default defineConfig({
  resolve: { alias: { graphql: graphqlEntry } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
  },
});
