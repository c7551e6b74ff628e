// Statements over tenant rows, declared once with their workspace binding and their named
// parameters. A statement is built by a function that is handed `workspace(alias?)`, which renders
// the binding `<alias>.workspace_id = $1` (or, for the workspaces table itself, `id = $1`), and
// `param(name)`, which renders `$2`, `$3` … (db/named-parameters.ts); a statement whose text never
// asks for the binding cannot be declared. WorkspaceScope.rows() runs only declared statements,
// with the bound workspace as $1, so a read cannot forget its tenant: the type system refuses raw
// text, and the declaration refuses a statement without the binding. Why a binding and not
// row-level security: docs/decisions/tenant-binding.md.
import { compileNamed, type NoValues, type ParamOf } from './named-parameters.js';

declare const declared: unique symbol;
declare const takes: unique symbol;

export interface TenantStatement<Row, P = NoValues> {
  /** The prepared statement's name, or null to have it planned for each call's values. */
  readonly name: string | null;
  readonly text: string;
  /** The named parameters in the order of $2, $3 …; null for a statement that takes none. */
  readonly params: readonly string[] | null;
  /** Carries the row type only. */
  readonly [declared]?: Row;
  /** Carries the parameters' type only. */
  readonly [takes]?: P;
}

export type WorkspaceBinding = (alias?: string) => string;

// A prepared statement's name must always mean the same text (a report's statement is built per
// call, under a name derived from its text, so the same name comes back with the same text).
const textByName = new Map<string, string>();

export class UnboundStatement extends Error {}

/** Refuses a second, different text under a name already declared. */
export function claimName(name: string | null, text: string): void {
  if (name === null) return;
  if ((textByName.get(name) ?? text) !== text)
    throw new UnboundStatement(`statement ${name} is declared twice with different texts`);
  textByName.set(name, text);
}

/**
 * Declares a statement; `build` must use the workspace binding it is handed, and names its
 * parameters with `param` (`P` says which there are and their types). `name` may be derived from
 * the text (statements whose text is built per call).
 */
export function tenantStatement<Row, P = NoValues>(
  nameOrNaming: string | null | ((text: string) => string | null),
  build: (workspace: WorkspaceBinding, param: ParamOf<P>) => string,
): TenantStatement<Row, P> {
  let bound = false;
  const workspace: WorkspaceBinding = (alias) => {
    bound = true;
    return alias === 'workspaces' ? 'id = $1' : `${alias ? `${alias}.` : ''}workspace_id = $1`;
  };
  const { text, params } = compileNamed(2, (param) => build(workspace, param as unknown as ParamOf<P>));
  const name = typeof nameOrNaming === 'function' ? nameOrNaming(text) : nameOrNaming;
  if (!bound) throw new UnboundStatement(`statement ${name ?? text.slice(0, 60)} is not bound to the workspace`);
  claimName(name, text);
  return { name, text, params };
}
