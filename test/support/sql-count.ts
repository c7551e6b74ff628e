import pg from 'pg';

/** Runs `work` and returns the SQL statements every pg client sent meanwhile (transaction control left out). */
export async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text: string };
    statements.push(typeof config === 'string' ? config : config.text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return statements.filter((text) => !/^(BEGIN|COMMIT|ROLLBACK|DEALLOCATE)/i.test(text.trim()));
}
