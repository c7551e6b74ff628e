// A row read by id is read once per request: v1's version probe (the body cache's key) and the
// resolver after it share one statement, as a hand-written handler reads its row once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';

let cold: TestApp;
let fixture: { secret: string; reportId: string; projectId: string };
beforeAll(async () => {
  // The data cache off: every request computes its answer, as on a cache miss.
  cold = await createTestApp({ DATA_CACHE_MAX_BYTES: '0' });
  const { workspace, key } = await createKeyedWorkspace(cold.database);
  await seedWorkspace(cold.database.prisma, cold.database.pool, { workspaceId: workspace.id, days: 3, clients: 1 });
  const report = await cold.database.prisma.report.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  const project = await cold.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  fixture = { secret: key.secret, reportId: report.id, projectId: project.id };
  await cold.get('/api/v1/clients', key.secret); // the key is cached from here on
});
afterAll(() => cold.close());

describe('one read of a row per request', () => {
  it('answers GET /reports/{id} with one statement when nothing is cached', async () => {
    let status = 0;
    const statements = await statementsDuring(
      async () => (status = (await cold.get(`/api/v1/reports/${fixture.reportId}`, fixture.secret)).status),
    );
    expect(status).toBe(200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('FROM reports');
  });

  it('answers an unknown report 404 after the same one statement', async () => {
    let body: any;
    const statements = await statementsDuring(
      async () => (body = await json(await cold.get('/api/v1/reports/rep_00000000000000000000', fixture.secret))),
    );
    expect(body.error.code).toBe('not_found');
    expect(statements).toHaveLength(1);
  });

  it('reads a project once for its metrics: the version probe and the resolver share the row', async () => {
    const statements = await statementsDuring(() =>
      cold.get(`/api/v1/ai-visibility/projects/${fixture.projectId}/metrics`, fixture.secret),
    );
    expect(statements.filter((text) => text.includes('FROM ai_projects'))).toHaveLength(1);
  });
});
