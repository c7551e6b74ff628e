// The one door to tenant rows. A WorkspaceScope is created per request (or command) from the
// principal; every read of a tenant's rows runs a statement declared with its workspace
// binding (db/tenant-sql.ts) with the bound workspace as $1 and its named values after it.
// Repositories and engines receive a scope, never a pool or an id found earlier, so a forgotten
// check in a resolver cannot leak another workspace's rows. Writes go through the admin command
// path (workspaces/admin-command.ts), which checks the actor's membership of the workspace it
// changes and scopes every statement of the change by that workspace.
import pg from 'pg';
import type { TenantStatement } from './tenant-sql.js';
import { orderedValues, type ValuesOf } from './named-parameters.js';
import { inRecordedTrace, inSpan, SpanKind } from '../observability/tracing.js';
import type { StatementShares } from './statement-shares.js';
import { ApiError } from '../errors/index.js';

/**
 * A statement not started because the client of its request went away: nobody will read the
 * answer, so the work stops at the next statement instead of holding the workspace's share of
 * the pool for a minute after the client left. An answer nobody sees (408), never logged.
 */
export class ClientGone extends ApiError {
  constructor() {
    super('request_timeout', 'The client went away before the answer was ready.');
  }
}

export interface WorkspaceScope {
  workspaceId: string;
  /** Runs a declared statement with the bound workspace as $1 and its named values. */
  rows<Row extends pg.QueryResultRow, P>(statement: TenantStatement<Row, P>, ...values: ValuesOf<P>): Promise<Row[]>;
  /** The same, read through a server-side cursor on a connection of its own: for results too large to hold. */
  cursor<Row extends pg.QueryResultRow, P>(
    statement: TenantStatement<Row, P>,
    ...values: ValuesOf<P>
  ): Promise<RowCursor<Row>>;
}

export interface RowCursor<Row> {
  /** The next rows, at most `count`; an empty array at the end. */
  read(count: number): Promise<Row[]>;
  /** Closes the cursor (the query stops) and gives the connection back; safe to call twice. */
  close(): Promise<void>;
}

const CURSOR_NAME = 'export_rows';

/** A request's scope; `signal`, the request's, stops its statements once its client went away. */
export type WorkspaceScopeFactory = (workspaceId: string, signal?: AbortSignal) => WorkspaceScope;

/**
 * Runs a statement as a pg Query made from its text, named afterwards: a config object is copied
 * through its property descriptors on every call (docs/decisions/data-access.md). The pool
 * hands a Query (a submittable) to a client like a config and resolves with its result.
 */
function run<Row extends pg.QueryResultRow>(
  pool: pg.Pool,
  statement: TenantStatement<Row, unknown>,
  values: unknown[],
): Promise<pg.QueryResult<Row>> {
  const query: pg.Query & { name?: string } = new pg.Query(statement.text, values);
  if (statement.name) query.name = statement.name;
  return pool.query(query) as unknown as Promise<pg.QueryResult<Row>>;
}

const rowsOf = <Row extends pg.QueryResultRow>(result: pg.QueryResult<Row>) => result.rows;

/**
 * Scopes over `pool` (the read pool: a replica when configured); cursors on `streamPool`. With
 * `shares`, each workspace runs at most its share of statements on `pool` at once.
 */
export function workspaceScopes(
  pool: pg.Pool,
  streamPool: pg.Pool = pool,
  shares?: StatementShares,
): WorkspaceScopeFactory {
  return (workspaceId, signal) => ({
    workspaceId,
    rows<Row extends pg.QueryResultRow, P>(statement: TenantStatement<Row, P>, ...[values]: ValuesOf<P>) {
      const bound = orderedValues(statement.params, values, [workspaceId]);
      // Chained, not awaited in async steps of their own: each statement of a request pays for one closure.
      // Checked when the statement's turn comes, so statements queued in the share stop too.
      const execute = () =>
        signal?.aborted ? Promise.reject(new ClientGone()) : run(pool, statement, bound).then(rowsOf);
      const shared = shares ? () => shares.run(workspaceId, execute) : execute;
      if (!inRecordedTrace()) return shared();
      // The span names the declared statement, never its values.
      return inSpan(
        `SELECT ${statement.name ?? 'statement'}`,
        { 'db.system.name': 'postgresql', 'db.query.summary': statement.name ?? 'unnamed' },
        shared,
        { kind: SpanKind.CLIENT },
      );
    },
    cursor: <Row extends pg.QueryResultRow, P>(statement: TenantStatement<Row, P>, ...[values]: ValuesOf<P>) =>
      openCursor<Row>(streamPool, statement.text, orderedValues(statement.params, values, [workspaceId])),
  });
}

/** Declares `text` as an SQL cursor in a read-only transaction on a connection of its own, read a FETCH at a time. */
async function openCursor<Row extends pg.QueryResultRow>(
  streamPool: pg.Pool,
  text: string,
  bound: unknown[],
): Promise<RowCursor<Row>> {
  const client = await streamPool.connect();
  // A checked-out client that loses its server (PostgreSQL ending a stalled export
  // transaction, a network failure) emits 'error'; the pool listens only to idle ones.
  let lost: Error | null = null;
  const onLost = (error: Error) => void (lost = error);
  client.on('error', onLost);
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.removeListener('error', onLost);
    client.release(error);
  };
  // An SQL cursor in a read-only transaction, not a protocol portal: between FETCHes the
  // session is "idle in transaction", so each FETCH is a statement under statement_timeout
  // and a reader that stops makes PostgreSQL end the session (the export pool's
  // idle_in_transaction_session_timeout), where a suspended portal stays "active" for ever.
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE ${CURSOR_NAME} NO SCROLL CURSOR FOR ${text}`, bound);
  } catch (error) {
    release(error as Error);
    throw error;
  }
  let reading = false;
  let closing = false;
  return {
    // pg's callback form: with its promise form every read's rows survived the next
    // young-generation collection (docs/decisions/data-access.md, "cursor reads").
    read: (count) =>
      new Promise<Row[]>((resolve, reject) => {
        reading = true;
        client.query<Row>(`FETCH ${Math.max(1, Math.floor(count))} FROM ${CURSOR_NAME}`, (error, result) => {
          reading = false;
          if (!error) return resolve(result.rows);
          release(error);
          reject(error);
        });
      }),
    close: async () => {
      if (released || closing) return;
      closing = true;
      // Abandoned mid-read (the reader went away): drop the connection, which ends the
      // query on the server at once instead of waiting for the FETCH to finish.
      if (reading || lost) return release(lost ?? new Error('cursor abandoned while reading'));
      try {
        await client.query('COMMIT');
        release();
      } catch (error) {
        // A connection whose transaction cannot be ended is not given back to the pool.
        release(error as Error);
      }
    },
  };
}
