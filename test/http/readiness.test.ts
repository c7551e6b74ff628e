// /readyz: every dependency answering, every migration applied, and not draining.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from '../support/app.js';
import { createReadiness } from '../../src/http/readiness.js';

describe('readiness', () => {
  it(
    'is the conjunction of its probes, a slow or failing ' + 'probe counts as down, and draining makes it not ready',
    async () => {
      const readiness = createReadiness([
        { name: 'fast', check: async () => true },
        { name: 'failing', check: async () => Promise.reject(new Error('down')) },
      ]);
      expect(await readiness.report()).toEqual({
        ready: false,
        draining: false,
        checks: { fast: 'ok', failing: 'down' },
      });
      const healthy = createReadiness([{ name: 'fast', check: async () => true }]);
      expect((await healthy.report()).ready).toBe(true);
      healthy.drain();
      expect(await healthy.report()).toEqual({ ready: false, draining: true, checks: { fast: 'ok' } });
    },
  );

  describe('/readyz', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('names its checks; a migration this build has but the database lacks makes it not ready', async () => {
      const ready = await t.get('/readyz');
      expect(ready.status).toBe(200);
      expect(await json(ready)).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
      const fresh = await createTestApp({}, { url: t.url });
      try {
        await t.database.pool.query("DELETE FROM schema_migrations WHERE name = '0008_trusted_doors'");
        const behind = await fresh.get('/readyz');
        expect(behind.status).toBe(503);
        expect(await json(behind)).toMatchObject({
          status: 'not_ready',
          checks: { database: 'ok', migrations: 'down' },
          error: { code: 'unavailable' },
        });
      } finally {
        await t.database.pool.query(
          "INSERT INTO schema_migrations (name) VALUES ('0008_trusted_doors') ON CONFLICT DO NOTHING",
        );
        await fresh.close();
      }
    });
  });
});
