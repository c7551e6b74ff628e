// The one admin command path: who may act, the plan, one transaction for the change and its
// audit entry, and one entry shape (with the acting app).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { personWithPassword } from '../support/web.js';
import { adminCommand, CHANGE_LOCK_WAIT_MS, CHANGE_TURN_LIMITS } from '../../src/workspaces/admin-command.js';

let t: TestApp;
let keyed: Awaited<ReturnType<typeof createKeyedWorkspace>>;
beforeAll(async () => {
  t = await createTestApp();
  keyed = await createKeyedWorkspace(t.database, { plan: 'starter' });
});
afterAll(() => t.close());

const rename = (
  actor: { email: string | null; via?: string; workspaceId?: string },
  name: string,
  policy: Parameters<typeof adminCommand>[2] = { what: 'rename the workspace' },
) =>
  adminCommand(t.database.prisma, { workspaceId: keyed.workspace.id, actor }, policy, async ({ tx, audit }) => {
    await tx.workspace.update({ where: { id: keyed.workspace.id }, data: { name } });
    await audit('workspace.renamed', keyed.workspace.id, { name });
    if (name === 'explode') throw new Error('the change failed half way');
    return name;
  });
const entries = () =>
  t.database.prisma.auditLogEntry.findMany({
    where: { workspaceId: keyed.workspace.id, action: 'workspace.renamed' },
    orderBy: { createdAt: 'asc' },
  });

describe('adminCommand', () => {
  it("runs a workspace's changes one at a time: a cap checked before the write holds in parallel", async () => {
    const cap = 3;
    const countedCreate = () =>
      adminCommand(
        t.database.prisma,
        { workspaceId: keyed.workspace.id, actor: { email: null } },
        { what: 'count' },
        async ({ tx, audit }) => {
          const made = await tx.auditLogEntry.count({
            where: { workspaceId: keyed.workspace.id, action: 'thing.made' },
          });
          // The window between the check and the write that parallel sends raced through.
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (made >= cap) return false;
          await audit('thing.made', keyed.workspace.id);
          return true;
        },
      );
    const made = await Promise.all(Array.from({ length: 12 }, countedCreate));
    expect(made.filter(Boolean)).toHaveLength(cap);
    expect(
      await t.database.prisma.auditLogEntry.count({ where: { workspaceId: keyed.workspace.id, action: 'thing.made' } }),
    ).toBe(cap);
  });

  it("waits its turn holding no connection: another tenant's read never waits behind its changes", async () => {
    // A change of this workspace holds its lock (another instance, a slow change) while twenty more are sent.
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query("SELECT pg_advisory_xact_lock(hashtext('workspace-change:' || $1))", [keyed.workspace.id]);
    const waiting = Promise.allSettled(
      Array.from({ length: 20 }, () =>
        adminCommand(
          t.database.prisma,
          { workspaceId: keyed.workspace.id, actor: { email: null } },
          { what: 'wait' },
          ({ audit }) => audit('thing.waited', keyed.workspace.id),
        ),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    await t.database.pool.query('SELECT 1');
    expect(performance.now() - started).toBeLessThan(500);
    // Held past the line's bound: the first change waits on the lock, the rest are refused 429 with Retry-After
    // once they waited CHANGE_TURN_LIMITS.maxWaitMs, instead of failing when their transaction's time ran out.
    await new Promise((resolve) => setTimeout(resolve, CHANGE_TURN_LIMITS.maxWaitMs + 200));
    await holder.query('COMMIT');
    await holder.end();
    const results = await waiting;
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected')
        expect(result.reason).toMatchObject({ code: 'rate_limited', headers: { 'Retry-After': '1' } });
  });

  it("waits for another instance's change at most CHANGE_LOCK_WAIT_MS, then is refused 429, not failed", async () => {
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query("SELECT pg_advisory_xact_lock(hashtext('workspace-change:' || $1))", [keyed.workspace.id]);
    try {
      const started = performance.now();
      const change = adminCommand(
        t.database.prisma,
        { workspaceId: keyed.workspace.id, actor: { email: null } },
        { what: 'wait' },
        ({ audit }) => audit('thing.waited', keyed.workspace.id),
      );
      await expect(change).rejects.toMatchObject({ code: 'rate_limited', headers: { 'Retry-After': '1' } });
      expect(performance.now() - started).toBeGreaterThanOrEqual(CHANGE_LOCK_WAIT_MS - 100);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
  });

  it('runs the change and writes one audit entry with the actor and the acting app', async () => {
    expect(await rename({ email: keyed.ownerEmail, via: 'Claude' }, 'Renamed')).toBe('Renamed');
    const [entry] = await entries();
    const owner = await t.database.prisma.user.findUniqueOrThrow({ where: { email: keyed.ownerEmail } });
    expect(entry).toMatchObject({
      actor: owner.id,
      target: keyed.workspace.id,
      details: { name: 'Renamed', via: 'Claude' },
    });
  });

  it('rolls the audit entry back with a change that fails', async () => {
    await expect(rename({ email: null }, 'explode')).rejects.toThrow(/half way/);
    expect((await t.database.prisma.workspace.findUniqueOrThrow({ where: { id: keyed.workspace.id } })).name).toBe(
      'Renamed',
    );
    expect(await entries()).toHaveLength(1);
  });

  it(
    "refuses members, admins where owners only, other workspaces' people, a signed-in " +
      "person's other workspace, and plans without the feature",
    async () => {
      const member = await personWithPassword(t.database, {
        email: `member-${Date.now()}@example.test`,
        workspaceId: keyed.workspace.id,
      });
      const admin = await personWithPassword(t.database, {
        email: `admin-${Date.now()}@example.test`,
        workspaceId: keyed.workspace.id,
        role: 'admin',
      });
      await expect(rename({ email: member.email }, 'x')).rejects.toMatchObject({ reason: 'forbidden' });
      await expect(rename({ email: admin.email }, 'x', { what: 'rename', ownerOnly: true })).rejects.toMatchObject({
        reason: 'forbidden',
      });
      await expect(rename({ email: 'stranger@example.test' }, 'x')).rejects.toMatchObject({ reason: 'forbidden' });
      await expect(
        rename({ email: keyed.ownerEmail, workspaceId: 'ws_somewhereelse00000' }, 'x'),
      ).rejects.toMatchObject({
        reason: 'not_found',
      });
      await expect(rename({ email: keyed.ownerEmail }, 'x', { what: 'rename', feature: 'webhooks' })).rejects.toThrow(
        /webhooks need the Pro, Agency or Scale plan; .* is on Starter/,
      );
      expect(await rename({ email: member.email }, 'By a member', { what: 'rename', members: true })).toBe(
        'By a member',
      );
      expect(await entries()).toHaveLength(2);
    },
  );
});
