import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../src/graphql/schema.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, json } from '../support/app.js';

describe('GraphQL schema', () => {
  it('matches the committed SDL in graphql/schema.graphql (run `npm run schema:print` after a change)', () => {
    expect(`${printedSchema()}\n`).toBe(readFileSync(new URL('../../graphql/schema.graphql', import.meta.url), 'utf8'));
  });
});

describe('kept GraphQL operations', () => {
  it('validate against the schema and run through /graphql with the fields v1 returns', async () => {
    const { print, validate } = await import('graphql');
    const { schema } = await import('../../src/graphql/schema.js');
    const { operationFileDocuments } = await import('../../src/graphql/operation-files.js');
    // The file's operations with the shared fragments they spread, as the web app sends them.
    const documents = operationFileDocuments(
      fileURLToPath(new URL('../../graphql/operations/v1.graphql', import.meta.url)),
    );
    for (const document of documents) expect(validate(schema, document).map((error) => error.message)).toEqual([]);
    const textOf = (operationName: string) =>
      print(
        documents.find(
          (document) => (document.definitions[0] as { name?: { value: string } }).name?.value === operationName,
        )!,
      );

    const t = await createTestApp();
    try {
      const { workspace, key } = await createKeyedWorkspace(t.database);
      await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: workspace.id, days: 5, clients: 1 });
      const graphql = async (operationName: string, variables: Record<string, unknown> = {}) =>
        json(
          await t.app.fetch(
            new Request('http://test.local/graphql', {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
              body: JSON.stringify({ query: textOf(operationName), operationName, variables }),
            }),
          ),
        );
      const reports = await graphql('Reports');
      const reportId = reports.data.reports.data[0].id;
      const viaGraphQL = await graphql('ReportData', { id: reportId, datePreset: 'last_7_days' });
      const viaRest = await json(await t.get(`/api/v1/reports/${reportId}/data?datePreset=last_7_days`, key.secret));
      expect(viaGraphQL.errors).toBeUndefined();
      expect(viaGraphQL.data.reportData.data.kpis).toEqual(viaRest.data.kpis);
    } finally {
      await t.close();
    }
  });
});
