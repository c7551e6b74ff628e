// The least a piece of SQL needs to run: a pg pool or client, or an admin command's transaction.
export interface SqlRunner {
  query(text: string, values?: readonly unknown[]): Promise<{ rows: Record<string, any>[] }>;
}
