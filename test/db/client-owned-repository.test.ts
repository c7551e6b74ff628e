// A row read by id is read once per request: v1's version probe (the body cache's key) and the
// resolver after it share one statement, as a hand-written handler reads its row once. With the
// data cache on, the probe of a kept answer reads the versions alone, and a changed row is still seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';

type Fixture = { secret: string; reportId: string; projectId: string };
let cold: TestApp;
let kept: TestApp;
let fixture: Fixture;
let keptFixture: Fixture;

async function seeded(app: TestApp): Promise<Fixture> {
  const { workspace, key } = await createKeyedWorkspace(app.database);
  await seedWorkspace(app.database.prisma, app.database.pool, { workspaceId: workspace.id, days: 3, clients: 1 });
  const report = await app.database.prisma.report.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  const project = await app.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  await app.get('/api/v1/clients', key.secret); // the key is cached from here on
  return { secret: key.secret, reportId: report.id, projectId: project.id };
}

beforeAll(async () => {
  // The data cache off: every request computes its answer, as on a cache miss.
  cold = await createTestApp({ DATA_CACHE_MAX_BYTES: '0' });
  fixture = await seeded(cold);
  kept = await createTestApp();
  keptFixture = await seeded(kept);
});
afterAll(async () => {
  await cold.close();
  await kept.close();
});

describe('one read of a row per request', () => {
  it('answers GET /reports/{id} with one statement when nothing is cached', async () => {
    let status = 0;
    const statements = await statementsDuring(
      async () => (status = (await cold.get(`/api/v1/reports/${fixture.reportId}`, fixture.secret)).status),
    );
    expect(status).toBe(200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('FROM reports');
    // The report alone: its answer shows nothing of its client's data version.
    expect(statements[0]).not.toContain('FROM clients');
  });

  it("reads a report with its client's data version and zone for its data, in the same one statement", async () => {
    const statements = await statementsDuring(() =>
      cold.get(`/api/v1/reports/${fixture.reportId}/data?datePreset=last_7_days`, fixture.secret),
    );
    const reads = statements.filter((text) => /FROM reports\b/.test(text));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain('FROM clients');
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

describe('the probe of a kept answer (the data cache on)', () => {
  const rename = (name: string) =>
    kept.database.prisma.report.update({ where: { id: keptFixture.reportId }, data: { name } });

  it('reads the report row version alone, and a renamed report is answered renamed', async () => {
    const path = `/api/v1/reports/${keptFixture.reportId}`;
    const first = await json(await kept.get(path, keptFixture.secret));
    let body: any;
    const statements = await statementsDuring(
      async () => (body = await json(await kept.get(path, keptFixture.secret))),
    );
    expect(body).toEqual(first);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('FROM reports');
    expect(statements[0]).not.toContain('definition');

    await rename('Renamed while kept');
    expect((await json(await kept.get(path, keptFixture.secret))).data.name).toBe('Renamed while kept');
  });

  it("reads a report's data versions without its definition; a renamed report's data is tagged anew", async () => {
    const path = `/api/v1/reports/${keptFixture.reportId}/data?datePreset=last_7_days`;
    const tag = (await kept.get(path, keptFixture.secret)).headers.get('etag');
    const statements = await statementsDuring(() => kept.get(path, keptFixture.secret));
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toContain('definition::text');

    await rename('Renamed again');
    expect((await kept.get(path, keptFixture.secret)).headers.get('etag')).not.toBe(tag);
  });

  it('answers an unknown report 404 after its probe', async () => {
    const body = await json(await kept.get('/api/v1/reports/rep_00000000000000000000', keptFixture.secret));
    expect(body.error.code).toBe('not_found');
  });
});
