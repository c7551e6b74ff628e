// The one path of every change to a workspace's settings and content, whatever the door
// (settings page and JSON, CLI, MCP write tools): resolve who acts, check their role (and the
// plan where the feature has one), run the change in one transaction, and write one audit entry
// of one shape — {action, target, details} with the acting app (`via`) when there is one — in
// that same transaction, so a change and its record stand or fall together.
import type { Prisma, PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { runStatement, sqlStatement, type SqlRunner } from '../db/sql-runner.js';
import { ApiError, UsageError } from '../errors/index.js';
import { createKeyedShares } from '../http/keyed-shares.js';
import type { Actor } from './actor.js';
import { planHas, planRefusal, type Feature } from './plans.js';

export interface AdminCommandPolicy {
  /** What the actor is trying to do, in the words of a refusal: "manage webhooks". */
  what: string;
  /** Owners only (admins refused). */
  ownerOnly?: boolean;
  /** Members may too (content the workspace's people make: reports, projects). */
  members?: boolean;
  /** The plan feature the change belongs to (PLAN_FEATURES says which plans have it). */
  feature?: Feature;
}

export interface AdminCommandContext {
  tx: Prisma.TransactionClient;
  workspaceId: string;
  /** The audit log's label of the actor: a user id, or "operator" at the CLI. */
  actorId: string;
  audit(action: string, target: string, details?: Record<string, unknown>): Promise<void>;
}

/**
 * What to add to the lookup of a thing an actor names by id: a signed-in person sees their active workspace's
 * things only, so another workspace's id is as unknown as one that never existed (same status, code and message).
 */
export const inActorsWorkspace = (actor: Actor): { workspaceId?: string } =>
  actor.workspaceId ? { workspaceId: actor.workspaceId } : {};

/** Resolves the actor for a workspace under a policy: their audit label, or a refusal. */
export async function authorizeActor(
  prisma: Pick<PrismaClient, 'membership' | 'workspace'>,
  workspaceId: string,
  actor: Actor,
  policy: AdminCommandPolicy,
): Promise<string> {
  // A signed-in person acts in their active workspace only: another workspace's things are not found.
  if (actor.workspaceId && actor.workspaceId !== workspaceId)
    throw new UsageError('not found in this workspace', 'not_found');
  if (policy.feature) {
    const workspace = await prisma.workspace.findUniqueOrThrow({
      where: { id: workspaceId },
      select: { plan: true, slug: true },
    });
    if (!planHas(workspace.plan, policy.feature))
      throw new UsageError(planRefusal(policy.feature, workspace.plan, workspace.slug), 'plan_required');
  }
  if (!actor.email) return 'operator';
  const membership = await prisma.membership.findFirst({
    where: { workspaceId, user: { email: actor.email } },
    select: { role: true, userId: true },
  });
  if (!membership) throw new UsageError(`${actor.email} is not a member of this workspace`, 'forbidden');
  if (membership.role === 'member' && !policy.members)
    throw new UsageError(`${actor.email} is a member; only owners and admins can ${policy.what}`, 'forbidden');
  if (policy.ownerOnly && membership.role !== 'owner')
    throw new UsageError(`${actor.email} is an admin; only owners can ${policy.what}`, 'forbidden');
  return membership.userId;
}

export interface AdminCommandScope {
  workspaceId: string;
  actor: Actor;
  /**
   * The one-time id of the form that sent a create (a page draws a new one each time): the change's audit entry
   * keeps it, and the same form sent again (a reload re-posting it) is refused instead of creating a second thing.
   */
  formId?: string;
}

/**
 * How long a change waits for the lock another instance's change holds (PostgreSQL's lock_timeout for the
 * transaction): past it, the same 429, within the 5 s a transaction may run rather than failing with it.
 */
export const CHANGE_LOCK_WAIT_MS = 4_000;
/**
 * A workspace's changes run one at a time, on any instance: a check and the write after it (a cap of 20 endpoints,
 * a form sent once) see every change committed before. Checked and then written in parallel, 25 creates at once
 * left 26 endpoints. A transaction-scoped advisory lock: nothing to release, and other workspaces never wait.
 */
const WORKSPACE_CHANGE_LOCK = sqlStatement<{ locked: string }, { workspaceId: string }>(
  'admin-command.workspace-lock',
  (param) => `SELECT set_config('lock_timeout', '${CHANGE_LOCK_WAIT_MS}ms', true),
    pg_advisory_xact_lock(hashtext('workspace-change:' || ${param('workspaceId')}))::text AS locked`,
);

/**
 * A workspace's changes also take turns on this instance before they open their transaction: waiting for the lock
 * inside one held a connection of the pool every tenant shares, and twenty changes of one workspace waiting behind a
 * slow one left the others' reads 503. So at most one connection per instance waits on a workspace's lock; a line
 * of its own (bounded in length and in wait, like a workspace's requests) holds the rest, and past it a change is
 * refused 429 with Retry-After instead of failing when its transaction's time runs out.
 */
export const CHANGE_TURN_LIMITS = { perKey: 1, maxWaiting: 32, maxWaitMs: 3_000 } as const;
/** PostgreSQL's lock_not_available, as the driver adapter passes it on. */
type DriverError = { meta?: { driverAdapterError?: { cause?: { code?: string } } } } | null | undefined;
const lockTimedOut = (error: unknown) => (error as DriverError)?.meta?.driverAdapterError?.cause?.code === '55P03';
const CHANGE_TURNS = createKeyedShares(CHANGE_TURN_LIMITS);
const changesBusy = () =>
  new ApiError(
    'rate_limited',
    `This workspace's changes run one at a time, and this one did not get its turn (${CHANGE_TURN_LIMITS.maxWaiting} ` +
      `waiting, or a few seconds waited); retry in 1 s.`,
    { headers: { 'Retry-After': '1' } },
  );

/** Refuses a form already sent (the workspace's change lock is held: two sends at once see each other). */
async function refuseSentForm(tx: Prisma.TransactionClient, workspaceId: string, formId: string) {
  const sent = await tx.auditLogEntry.findFirst({
    where: { workspaceId, details: { path: ['formId'], equals: formId } },
    select: { target: true },
  });
  if (sent)
    throw new UsageError(
      `this form was already sent and created ${sent.target}; a secret is shown once, in the answer to the first send`,
      'conflict',
    );
}

/** Runs a change of `workspaceId` for `actor` under `policy` (see the top of this file). */
export async function adminCommand<R>(
  prisma: PrismaClient,
  scope: AdminCommandScope,
  policy: AdminCommandPolicy,
  change: (context: AdminCommandContext) => Promise<R>,
): Promise<R> {
  const actorId = await authorizeActor(prisma, scope.workspaceId, scope.actor, policy);
  const via = scope.actor.via ? { via: scope.actor.via } : {};
  const form = scope.formId ? { formId: scope.formId } : {};
  const turn = CHANGE_TURNS.take(scope.workspaceId);
  try {
    if (!(await turn.granted)) throw changesBusy();
    return await changeInTransaction();
  } catch (error) {
    throw lockTimedOut(error) ? changesBusy() : error;
  } finally {
    turn.release();
  }

  function changeInTransaction() {
    return prisma.$transaction(async (tx) => {
      await runStatement(sqlOf(tx), WORKSPACE_CHANGE_LOCK, { workspaceId: scope.workspaceId });
      if (scope.formId) await refuseSentForm(tx, scope.workspaceId, scope.formId);
      return change({
        tx,
        workspaceId: scope.workspaceId,
        actorId,
        audit: async (action, target, details = {}) => {
          await tx.auditLogEntry.create({
            data: {
              id: newId('audit'),
              workspaceId: scope.workspaceId,
              actor: actorId,
              action,
              target,
              details: { ...details, ...via, ...form } as object,
            },
          });
        },
      });
    });
  }
}

/**
 * Hand-written SQL inside an admin command's transaction, in pg's shape (code shared with pool
 * users takes a SqlRunner).
 */
export const sqlOf = (tx: Prisma.TransactionClient): SqlRunner => ({
  query: async (text, values = []) => ({ rows: await tx.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values) }),
});
