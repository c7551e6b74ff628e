// Rows written column-wise: each column travels as one array parameter and the statement reads
// them through unnest(), so thousands of rows cost one short statement instead of a VALUES list
// with a placeholder per cell (which PostgreSQL parses and binds cell by cell). A JSON column
// (type 'jsonb') travels as one JSON array of its values, read with jsonb_array_elements(): as a
// text[] of JSON texts, the driver escapes every quote of every value into the array literal
// (docs/decisions/ingest-column-writes.md).
import type pg from 'pg';

/** Rows per statement. */
export const ROWS_PER_STATEMENT = 5_000;

export type Columns = Record<string, unknown[]>;

// Each row's values go to the columns in order; the columns' arrays are listed once per record,
// not per row (docs/decisions/ingest-column-writes.md).
const columnLists = new WeakMap<Columns, unknown[][]>();

export const columnsOf = <K extends string>(names: readonly K[]): Record<K, unknown[]> => {
  const columns = Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<K, unknown[]>;
  columnLists.set(columns, Object.values(columns));
  return columns;
};

export function pushRow(columns: Columns, values: readonly unknown[]) {
  const lists = columnLists.get(columns)!;
  for (let index = 0; index < lists.length; index++) lists[index]!.push(values[index]);
}

/**
 * Runs `sql(rows)` once per chunk of rows and returns what it returned. `rows` is the FROM item
 * yielding them, one column per column in order: `ROWS FROM (unnest($1::type[]), …,
 * jsonb_array_elements($n::jsonb))`.
 */
export async function insertColumns<R extends pg.QueryResultRow = pg.QueryResultRow>(
  client: pg.PoolClient | pg.Client,
  sql: (rows: string) => string,
  columns: Columns,
  types: Record<string, string>,
  onProgress?: (done: number) => void,
): Promise<R[]> {
  const names = Object.keys(columns);
  const length = columns[names[0]!]!.length;
  const isJson = (name: string) => types[name] === 'jsonb';
  const column = (name: string, index: number) =>
    isJson(name) ? `jsonb_array_elements($${index + 1}::jsonb)` : `unnest($${index + 1}::${types[name]}[])`;
  const rows = `ROWS FROM (${names.map(column).join(', ')})`;
  const returned: R[] = [];
  for (let start = 0; start < length; start += ROWS_PER_STATEMENT) {
    const values = names.map((name) => {
      const chunk = columns[name]!.slice(start, start + ROWS_PER_STATEMENT);
      return isJson(name) ? JSON.stringify(chunk) : chunk;
    });
    const result = await client.query<R>(sql(rows), values);
    for (const row of result.rows) returned.push(row);
    onProgress?.(Math.min(length, start + ROWS_PER_STATEMENT));
  }
  return returned;
}
