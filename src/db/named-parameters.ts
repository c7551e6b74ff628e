// Named parameters, compiled once where a statement is declared: the builder hands out
// `param(name)`, which renders `$n` (the same `$n` each time a name comes back), and the
// declaration keeps the names in `$n` order. A call then passes `{ name: value }`, so `$7` can
// never mean one thing in one statement and another in the next.

/** The values a statement takes, by name. */
export type NamedValues = Record<string, unknown>;
/** What a statement that takes no values declares. */
export type NoValues = Record<string, never>;

/** Renders a named parameter as its placeholder. */
export type ParamOf<P> = (name: Extract<keyof P, string>) => string;

/** What a call passes: the named values, optional when the statement takes none. */
export type ValuesOf<P> = NoValues extends P ? [values?: P] : [values: P];

export interface Compiled {
  text: string;
  /** The names in placeholder order; null when the text used none. */
  params: readonly string[] | null;
}

/** Builds a text whose `param(name)` calls become `$first`, `$first + 1` … in order of first use. */
export function compileNamed(first: number, build: (param: (name: string) => string) => string): Compiled {
  const names: string[] = [];
  const text = build((name) => {
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${first + index}`;
  });
  return { text, params: names.length ? names : null };
}

/** The values of one call in placeholder order, after `leading` ($1 … of the door: the workspace). */
export function orderedValues(
  params: readonly string[] | null,
  values: unknown,
  leading: readonly unknown[],
): unknown[] {
  if (params === null) return [...leading];
  const ordered = leading.slice();
  const named = values as NamedValues;
  for (const name of params) ordered.push(named[name]);
  return ordered;
}
