// The reads every kind of row a client owns needs (reports, AI-visibility projects): a capped
// list (optionally of one client) with its count, one by id or 404, its data version, many by
// id in the order asked, and each client's capped list in one statement. Each kind declares
// its statements (with their workspace binding); this gives them one shape. A repository lives
// for one request, so a row read by id is read once: v1's version probe and the resolver after it
// share one statement, as a hand-written handler reads its row once. Where answers are kept (the data
// cache on), a probe is mostly a hit, which needs the versions alone: a kind that declares version
// probes reads only their columns then, and a miss reads the row after it.
import { notFound } from '../errors/index.js';
import { cappedByParent, inAskedOrder, type ListEnvelope } from './per-parent.js';
import type { TenantStatement } from './tenant-sql.js';
import type { WorkspaceScope } from './workspace-scope.js';

type Identified = { id: string };

type ById<R> = TenantStatement<R, { id: string }>;

/**
 * What a version probe reads. `kept`: the answer is probably kept (the data cache on), so the
 * versions alone (`versionProbes`), and a miss reads the row after them. `row`: the row, which the
 * resolver after the probe then uses. `alone`: for an answer that is the row itself, the row without
 * what the data computed from it depends on (`findAlone`), likewise used by the resolver.
 */
export type ProbeRead = 'kept' | 'row' | 'alone';

export interface ClientOwnedStatements<
  Row extends Identified,
  Summary extends Identified,
  Found extends Identified = Row,
  RowVersions extends object = Found,
  DataVersions extends object = Found,
> {
  list: TenantStatement<Summary, { clientId: string | null; take: number }>;
  count: TenantStatement<{ n: number }, { clientId: string | null }>;
  /** The row as read, before `rowOf` (a column may come as text, to be parsed only when asked). */
  find: ById<Found>;
  /** The row as its readers take it. */
  rowOf(found: Found): Row;
  /** What the data computed from a row depends on (its edits, its facts' ingests). */
  versionOf(found: DataVersions): string;
  /** What the row itself, answered as it is, depends on (its edits); its data version when not given. */
  rowVersionOf?(found: RowVersions): string;
  /** The time zone whose "today" the data computed from the row depends on; UTC when not given. */
  timeZoneOf?(found: DataVersions): string;
  /**
   * The probes of an answer likely kept: `row` reads the columns `rowVersionOf` reads, `data` those of
   * `versionOf` and `timeZoneOf`, and nothing else. Without them a probe reads the row (`find`).
   */
  versionProbes?: { row: ById<RowVersions>; data: ById<DataVersions> };
  /**
   * `find` without the columns only the row's computed data depends on (null there): an answer that is
   * the row itself (v1's report) reads no more than it shows. `find` hands out such a row only after an
   * `alone` probe of the same request; a reader of those columns refuses a null (`dataVersionOf`).
   */
  findAlone?: ById<Found>;
  byIds: TenantStatement<Row, { ids: readonly string[] }>;
  /** Per parent (db/per-parent.ts): `parentIds` the clients, `cap` per client. */
  byClients: TenantStatement<
    Summary & { parentId: string; total: number },
    { parentIds: readonly string[]; cap: number }
  >;
}

/** Each id's first row, read once per repository (one request). */
function readOnce<R>(read: (id: string) => Promise<R[]>) {
  const byId = new Map<string, Promise<R | undefined>>();
  return {
    held: (id: string) => byId.get(id),
    row(id: string) {
      let row = byId.get(id);
      if (!row) byId.set(id, (row = read(id).then((rows) => rows[0])));
      return row;
    },
  };
}
type ReadOnce<R> = ReturnType<typeof readOnce<R>>;

export function clientOwnedRepository<
  Row extends Identified,
  Summary extends Identified,
  Found extends Identified = Row,
  RowVersions extends object = Found,
  DataVersions extends object = Found,
>(
  scope: WorkspaceScope,
  statements: ClientOwnedStatements<Row, Summary, Found, RowVersions, DataVersions>,
  what: string,
) {
  // Every statement here takes values, which ValuesOf cannot tell of a P not yet known.
  const rows = <R extends object, P extends object>(statement: TenantStatement<R, P>, values: P): Promise<R[]> =>
    (scope.rows as (statement: TenantStatement<R, P>, values: P) => Promise<R[]>)(statement, values);
  const { versionProbes, findAlone } = statements;
  const once = <R extends object>(statement: ById<R>) => readOnce((id: string) => rows(statement, { id }));
  let full: ReadOnce<Found> | undefined;
  let alone: ReadOnce<Found> | undefined;
  let rowVersions: ReadOnce<RowVersions> | undefined;
  let dataVersions: ReadOnce<DataVersions> | undefined;
  const byId = (id: string) => (full ??= once(statements.find)).row(id);
  // The versions are columns of the row (RowVersions and DataVersions pick them from Found).
  const rowVersionsOf = (id: string, read: ProbeRead) =>
    versionProbes && read === 'kept'
      ? (rowVersions ??= once(versionProbes.row)).row(id)
      : ((findAlone && read === 'alone' ? (alone ??= once(findAlone)).row(id) : byId(id)) as Promise<
          (Found & RowVersions) | undefined
        >);
  const dataVersionsOf = (id: string, read: ProbeRead) =>
    versionProbes && read === 'kept'
      ? (dataVersions ??= once(versionProbes.data)).row(id)
      : (byId(id) as Promise<(Found & DataVersions) | undefined>);
  const dataVersionOf = async (id: string, read: ProbeRead): Promise<string | null> => {
    const row = await dataVersionsOf(id, read);
    return row ? statements.versionOf(row) : null;
  };
  let finished: Map<string, Row> | undefined;
  return {
    list: (clientId: string | null, take: number) => rows(statements.list, { clientId, take }),
    count: async (clientId: string | null) => (await rows(statements.count, { clientId }))[0]!.n,
    /** One of the workspace's, or 404. */
    find: async (id: string): Promise<Row> => {
      const stored = await (full?.held(id) ?? alone?.held(id) ?? byId(id));
      if (!stored) throw notFound(what);
      finished ??= new Map();
      let row = finished.get(id);
      if (!row) finished.set(id, (row = statements.rowOf(stored)));
      return row;
    },
    /** What its computed data depends on (bumped by ingests and edits); null if there is no such row. */
    dataVersionOf: (id: string, read: ProbeRead = 'row') => dataVersionOf(id, read === 'alone' ? 'row' : read),
    /** What the row as an answer depends on; null if there is no such row. */
    rowVersionOf: async (id: string, read: ProbeRead = 'row'): Promise<string | null> => {
      const versionOf = statements.rowVersionOf;
      if (!versionOf) return dataVersionOf(id, read === 'alone' ? 'row' : read);
      const row = await rowVersionsOf(id, read);
      return row ? versionOf(row) : null;
    },
    /** The zone of the "today" its computed data depends on (UTC unless the row names one); null if no such row. */
    timeZoneOf: async (id: string, read: ProbeRead = 'row'): Promise<string | null> => {
      const row = await dataVersionsOf(id, read);
      return row ? (statements.timeZoneOf?.(row) ?? 'UTC') : null;
    },
    /** By id, in the order asked; null where there is none. */
    byIds: async (ids: readonly string[]): Promise<(Row | null)[]> =>
      inAskedOrder(ids, await rows(statements.byIds, { ids })),
    /** Each client's, newest first, capped per client, in one statement. */
    byClients: async (clientIds: readonly string[], cap: number): Promise<ListEnvelope<Summary>[]> =>
      cappedByParent(clientIds, await rows(statements.byClients, { parentIds: clientIds, cap })),
  };
}
