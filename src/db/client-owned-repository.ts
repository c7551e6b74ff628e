// The reads every kind of row a client owns needs (reports, AI-visibility projects): a capped
// list (optionally of one client) with its count, one by id or 404, its data version, many by
// id in the order asked, and each client's capped list in one statement. Each kind declares
// its statements (with their workspace binding); this gives them one shape. A repository lives
// for one request, so a row read by id is read once: v1's version probe and the resolver after it
// share one statement, as a hand-written handler reads its row once. Where answers are kept (the data
// cache on), a probe is mostly a hit, which needs the versions alone: a kind that declares version
// probes reads only their columns then, and a miss reads the row after it
// (docs/decisions/version-probes.md).
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

/** Each id's first row of one statement, read once per repository (one request). */
type Held<R> = Map<string, Promise<R | undefined>>;
const first = <R>(rows: R[]) => rows[0];

/**
 * One object per request, its methods on the prototype: made per request as a record of closures,
 * a repository allocated every one of them whether used or not (docs/decisions/request-path-allocations.md).
 */
class ClientOwnedRows<
  Row extends Identified,
  Summary extends Identified,
  Found extends Identified,
  RowVersions extends object,
  DataVersions extends object,
> {
  #full: Held<Found> | undefined;
  #alone: Held<Found> | undefined;
  #heldRowVersions: Held<RowVersions> | undefined;
  #heldDataVersions: Held<DataVersions> | undefined;
  #finished: Map<string, Row> | undefined;

  constructor(
    private readonly scope: WorkspaceScope,
    private readonly statements: ClientOwnedStatements<Row, Summary, Found, RowVersions, DataVersions>,
    private readonly what: string,
  ) {}

  // Every statement here takes values, which ValuesOf cannot tell of a P not yet known.
  #rows<R extends object, P extends object>(statement: TenantStatement<R, P>, values: P): Promise<R[]> {
    return (this.scope.rows as (statement: TenantStatement<R, P>, values: P) => Promise<R[]>)(statement, values);
  }

  #once<R extends object>(held: Held<R>, statement: ById<R>, id: string): Promise<R | undefined> {
    let row = held.get(id);
    if (!row) held.set(id, (row = this.#rows(statement, { id }).then(first)));
    return row;
  }

  #byId(id: string) {
    return this.#once((this.#full ??= new Map()), this.statements.find, id);
  }

  // The versions are columns of the row (RowVersions and DataVersions pick them from Found).
  #rowVersions(id: string, read: ProbeRead) {
    const { versionProbes, findAlone } = this.statements;
    if (versionProbes && read === 'kept')
      return this.#once((this.#heldRowVersions ??= new Map()), versionProbes.row, id);
    const row = findAlone && read === 'alone' ? this.#once((this.#alone ??= new Map()), findAlone, id) : this.#byId(id);
    return row as Promise<(Found & RowVersions) | undefined>;
  }

  #dataVersions(id: string, read: ProbeRead) {
    const { versionProbes } = this.statements;
    if (versionProbes && read === 'kept')
      return this.#once((this.#heldDataVersions ??= new Map()), versionProbes.data, id);
    return this.#byId(id) as Promise<(Found & DataVersions) | undefined>;
  }

  list(clientId: string | null, take: number) {
    return this.#rows(this.statements.list, { clientId, take });
  }

  async count(clientId: string | null) {
    return (await this.#rows(this.statements.count, { clientId }))[0]!.n;
  }

  /** One of the workspace's, or 404. */
  async find(id: string): Promise<Row> {
    const stored = await (this.#full?.get(id) ?? this.#alone?.get(id) ?? this.#byId(id));
    if (!stored) throw notFound(this.what);
    const finished = (this.#finished ??= new Map());
    let row = finished.get(id);
    if (!row) finished.set(id, (row = this.statements.rowOf(stored)));
    return row;
  }

  /** What its computed data depends on (bumped by ingests and edits); null if there is no such row. */
  async dataVersionOf(id: string, read: ProbeRead = 'row'): Promise<string | null> {
    const row = await this.#dataVersions(id, read);
    return row ? this.statements.versionOf(row) : null;
  }

  /** What the row as an answer depends on; null if there is no such row. */
  async rowVersionOf(id: string, read: ProbeRead = 'row'): Promise<string | null> {
    const versionOf = this.statements.rowVersionOf;
    if (!versionOf) return this.dataVersionOf(id, read === 'alone' ? 'row' : read);
    const row = await this.#rowVersions(id, read);
    return row ? versionOf(row) : null;
  }

  /** The zone of the "today" its computed data depends on (UTC unless the row names one); null if no such row. */
  async timeZoneOf(id: string, read: ProbeRead = 'row'): Promise<string | null> {
    const row = await this.#dataVersions(id, read);
    return row ? (this.statements.timeZoneOf?.(row) ?? 'UTC') : null;
  }

  /** By id, in the order asked; null where there is none. */
  async byIds(ids: readonly string[]): Promise<(Row | null)[]> {
    return inAskedOrder(ids, await this.#rows(this.statements.byIds, { ids }));
  }

  /** Each client's, newest first, capped per client, in one statement. */
  async byClients(clientIds: readonly string[], cap: number): Promise<ListEnvelope<Summary>[]> {
    return cappedByParent(clientIds, await this.#rows(this.statements.byClients, { parentIds: clientIds, cap }));
  }
}

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
  return new ClientOwnedRows(scope, statements, what);
}
