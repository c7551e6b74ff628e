// Rows written column-wise: each column travels as one array parameter and the statement reads
// them through unnest(), so thousands of rows cost one short statement instead of a VALUES list
// with a placeholder per cell (which PostgreSQL parses and binds cell by cell).
import type pg from 'pg';

/** Rows per statement. */
export const ROWS_PER_STATEMENT = 5_000;

export type Columns = Record<string, unknown[]>;

export const columnsOf = <K extends string>(names: readonly K[]): Record<K, unknown[]> => Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<K, unknown[]>;

export function pushRow(columns: Columns, values: readonly unknown[]) {
  Object.values(columns).forEach((column, index) => column.push(values[index]));
}

/** Runs `sql(params)` once per chunk of rows (`params` is `$1::type[], $2::type[], …` in the columns' order) and returns what it returned. */
export async function insertColumns<R extends pg.QueryResultRow = pg.QueryResultRow>(
  client: pg.PoolClient | pg.Client,
  sql: (params: string) => string,
  columns: Columns,
  types: Record<string, string>,
  onProgress?: (done: number) => void,
): Promise<R[]> {
  const names = Object.keys(columns);
  const length = columns[names[0]!]!.length;
  const params = names.map((name, index) => `$${index + 1}::${types[name]}[]`).join(', ');
  const returned: R[] = [];
  for (let start = 0; start < length; start += ROWS_PER_STATEMENT) {
    const result = await client.query<R>(sql(params), names.map((name) => columns[name]!.slice(start, start + ROWS_PER_STATEMENT)));
    for (const row of result.rows) returned.push(row);
    onProgress?.(Math.min(length, start + ROWS_PER_STATEMENT));
  }
  return returned;
}
