// The one type of "runs SQL": a pg pool or client, or an admin command's transaction
// (`sqlOf(tx)`). SQL that is not a read of one workspace's rows (the webhook worker's steps,
// sign-in counters, events about a person, a command's set-based change) is declared once here
// with named parameters and run on a runner; tenant reads are tenant statements on the scope.
import { claimName } from './tenant-sql.js';
import { compileNamed, orderedValues, type ParamOf, type ValuesOf } from './named-parameters.js';

export interface SqlRunner {
  query(
    text: string,
    values?: readonly unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount?: number | null }>;
}

declare const declared: unique symbol;
declare const takes: unique symbol;

export interface SqlStatement<Row, P extends object = Record<string, never>> {
  readonly name: string;
  readonly text: string;
  readonly params: readonly string[] | null;
  /** Carries the row type only. */
  readonly [declared]?: Row;
  /** Carries the parameters' type only. */
  readonly [takes]?: P;
}

/** Declares a statement that is not bound to one workspace; `param(name)` renders its placeholders. */
export function sqlStatement<Row, P extends object = Record<string, never>>(
  name: string,
  build: (param: ParamOf<P>) => string,
): SqlStatement<Row, P> {
  const { text, params } = compileNamed(1, (param) => build(param as unknown as ParamOf<P>));
  claimName(name, text);
  return { name, text, params };
}

/** Runs a declared statement on `runner` with its named values: its rows and how many it changed. */
export async function runStatement<Row, P extends object>(
  runner: SqlRunner,
  statement: SqlStatement<Row, P>,
  ...[values]: ValuesOf<P>
): Promise<{ rows: Row[]; rowCount: number }> {
  const result = await runner.query(statement.text, orderedValues(statement.params, values, []));
  return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
}
