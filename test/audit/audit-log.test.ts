// An audit entry written outside an admin command goes through SQL on a pool, not Prisma: the first
// Prisma query of an instance loads its WebAssembly query compiler (20–27 MB resident), and the MCP
// consent, a revocation, the webhook worker and single sign-on write entries on instances that
// otherwise never touch Prisma (docs/decisions/quiet-memory.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/audit/index.js';
import { idPattern } from '../../src/db/ids.js';
import type { SqlRunner } from '../../src/db/sql-runner.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('recordAudit', () => {
  it('is one statement on the runner it is given', async () => {
    const sent: { text: string; values: readonly unknown[] }[] = [];
    const runner: SqlRunner = {
      query: async (text, values = []) => {
        sent.push({ text, values });
        return { rows: [], rowCount: 1 };
      },
    };
    await recordAudit(runner, { workspaceId: 'wsp_x', actor: 'system', action: 'a.b', target: 'tgt' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toMatch(/^INSERT INTO audit_log/);
    expect(sent[0]!.values).toEqual([expect.stringMatching(idPattern('audit')), 'wsp_x', 'system', 'a.b', 'tgt', '{}']);
  });

  it('writes the entry as given, dated by the database', async () => {
    const { workspace } = await createKeyedWorkspace(t.database);
    const before = new Date();
    const details = { grantId: 'g1', toolsets: ['reports'], writes: false, nested: { n: 1.5, s: 'é' } };
    await recordAudit(t.database.pool, {
      workspaceId: workspace.id,
      actor: 'usr_someone',
      action: 'mcp.client_authorized',
      target: 'client-1',
      details,
    });
    const entry = await t.database.prisma.auditLogEntry.findFirstOrThrow({
      where: { workspaceId: workspace.id, action: 'mcp.client_authorized' },
    });
    expect(entry).toMatchObject({ actor: 'usr_someone', target: 'client-1', details });
    expect(entry.id).toMatch(new RegExp(idPattern('audit')));
    expect(entry.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });
});
