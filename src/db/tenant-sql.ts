// Statements over tenant rows, declared once with their workspace binding. A statement is built
// by a function that is handed `workspace(alias?)`, which renders the binding
// `<alias>.workspace_id = $1` (or, for the workspaces table itself, `id = $1`); a statement whose
// text never asks for it cannot be declared. WorkspaceScope.rows() runs only declared
// statements, with the bound workspace as $1, so a read cannot forget its tenant: the type
// system refuses raw text, and the declaration refuses a statement without the binding.
// (Chosen over PostgreSQL row-level security, measured in ARCHITECTURE.md: the binding costs
// nothing at run time, RLS's per-transaction setting cost 2.5–3.5× per statement.)

declare const declared: unique symbol;

export interface TenantStatement<Row> {
  /** The prepared statement's name, or null to have it planned for each call's values. */
  readonly name: string | null;
  readonly text: string;
  /** Carries the row type only. */
  readonly [declared]?: Row;
}

export type WorkspaceBinding = (alias?: string) => string;

// A prepared statement's name must always mean the same text (a report's statement is built per
// call, under a name derived from its text, so the same name comes back with the same text).
const textByName = new Map<string, string>();

export class UnboundStatement extends Error {}

/**
 * Declares a statement; `build` must use the workspace binding it is handed. `name` may be
 * derived from the text (statements whose text is built per call).
 */
export function tenantStatement<Row>(
  nameOrNaming: string | null | ((text: string) => string | null),
  build: (workspace: WorkspaceBinding) => string,
): TenantStatement<Row> {
  let bound = false;
  const text = build((alias) => {
    bound = true;
    return alias === 'workspaces' ? 'id = $1' : `${alias ? `${alias}.` : ''}workspace_id = $1`;
  });
  const name = typeof nameOrNaming === 'function' ? nameOrNaming(text) : nameOrNaming;
  if (!bound) throw new UnboundStatement(`statement ${name ?? text.slice(0, 60)} is not bound to the workspace`);
  if (name !== null) {
    if ((textByName.get(name) ?? text) !== text)
      throw new UnboundStatement(`statement ${name} is declared twice with different texts`);
    textByName.set(name, text);
  }
  return { name, text };
}
