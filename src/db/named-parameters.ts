// Named parameters, compiled once where a statement is declared: the builder hands out
// `param(name)`, which renders `$n` (the same `$n` each time a name comes back), and the
// declaration keeps the names in `$n` order. A call then passes `{ name: value }`, so `$7` can
// never mean one thing in one statement and another in the next.

/** The values a statement takes, by name. */
export type NamedValues = Record<string, unknown>;
/** Values by position ($2, $3 … of a tenant statement written with positional placeholders). */
export type Positional = readonly unknown[];

/** Renders a named parameter as its placeholder; a statement declared without names has none to hand out. */
export type ParamOf<P> = P extends Positional ? never : (name: Extract<keyof P, string>) => string;

/** What a call passes: the named values (optional when the statement takes none), or the positional array. */
export type ValuesOf<P> = P extends Positional
  ? [values?: P]
  : Record<string, never> extends P
    ? [values?: P]
    : [values: P];

export interface Compiled {
  text: string;
  /** The names in placeholder order; null when the text used none (a positional or parameterless statement). */
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
  if (params === null) return Array.isArray(values) ? [...leading, ...values] : [...leading];
  const ordered = leading.slice();
  const named = values as NamedValues;
  for (const name of params) ordered.push(named[name]);
  return ordered;
}
