// Admin data (people, keys, the audit log, webhooks) asked for with an API key: no scope grants
// it, so the refusal is 403 forbidden saying who may read it — not insufficient_scope, and never
// the authorization plugin's own wording ("Not authorized to resolve Query.…").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ADMINS_ONLY =
  'Only owners and admins of the workspace may read this; an API key never may, so sign in to the web app as one.';

describe('admin data with an API key', () => {
  it.each(['apiKeys { name }', 'auditLog { action }', 'members { email }', 'webhookEndpoints { url }'])(
    '{ %s } is 403 forbidden with our own message',
    async (field) => {
      const { key } = await createKeyedWorkspace(t.database);
      const response = await t.app.fetch(
        new Request('http://test.local/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
          body: JSON.stringify({ query: `{ ${field} }` }),
        }),
      );
      const body = await json(response);
      expect(response.status).toBe(403);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].extensions.code).toBe('forbidden');
      expect(body.errors[0].message).toBe(ADMINS_ONLY);
      expect(JSON.stringify(body)).not.toMatch(/Not authorized/);
    },
  );
});
