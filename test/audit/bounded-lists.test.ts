// The graph's admin lists (the audit log, an endpoint's attempts) refuse a size outside their
// bounds with the 400 every other list gives, naming `first`, instead of clamping it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { call, personWithPassword, signIn } from '../support/web.js';

let t: TestApp;
let admin: { cookie: string; csrf: string };

beforeAll(async () => {
  t = await createTestApp();
  const agency = await createKeyedWorkspace(t.database);
  await personWithPassword(t.database, { email: agency.ownerEmail });
  admin = await signIn(t.app, agency.ownerEmail);
});
afterAll(() => t.close());

const ask = async (query: string) => json(await call(t.app, admin, 'POST', '/graphql', { query }));

describe('the admin lists of the graph', () => {
  it.each([
    ['auditLog', '{ auditLog(first: %) { id } }'],
    ['webhookAttempts', '{ webhookAttempts(endpointId: "whe_x", first: %) { id } }'],
  ])('%s refuses first outside 1–500 naming it, and takes the bounds themselves', async (_field, template) => {
    for (const first of [0, 501, -1]) {
      const body = await ask(template.replace('%', String(first)));
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_parameter', param: 'first' });
    }
    for (const first of [1, 500]) expect((await ask(template.replace('%', String(first)))).errors).toBeUndefined();
  });
});
